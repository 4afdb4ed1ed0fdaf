import { useTranslation } from "react-i18next";

/** A pushed follow-up as the live room's events carry it: the English (or a coach's free
 * text) and the bank's translations of it, by language. */
export interface FollowUpTexts {
  text: string;
  translations?: Record<string, string>;
}

/** The follow-up's text in `language` where the bank translates it, else as pushed. */
export function followUpText(followUp: FollowUpTexts, language: string): string {
  return followUp.translations?.[language] || followUp.text;
}

/** `followUpText` in the reader's interface language: every client of a room shows a
 * pushed follow-up in its own reader's language. */
export function useFollowUpText(): (followUp: FollowUpTexts) => string {
  const { i18n } = useTranslation();
  return (followUp) => followUpText(followUp, i18n.language);
}
