import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";

export function BankNav() {
  const { t } = useTranslation();
  return (
    <nav className="subnav" aria-label={t("admin:nav.label")}>
      <NavLink to="/bank" end>
        {t("admin:nav.questions")}
      </NavLink>
      <NavLink to="/bank/rubrics">{t("admin:nav.rubrics")}</NavLink>
      <NavLink to="/bank/loops">{t("admin:nav.loops")}</NavLink>
      <NavLink to="/bank/transfer">{t("admin:nav.transfer")}</NavLink>
    </nav>
  );
}
