// The browser's own speech recognition, where it offers one (Chrome's
// webkitSpeechRecognition, the standard SpeechRecognition): a transcript of a spoken answer
// as it is spoken. Feature-detected: headless Chromium and Firefox have none, and then the
// candidate types what they said.

interface RecognitionResult {
  isFinal: boolean;
  0: { transcript: string };
}
interface RecognitionEvent {
  resultIndex: number;
  results: ArrayLike<RecognitionResult>;
}
export interface Recognition {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  onresult: ((event: RecognitionEvent) => void) | null;
  onerror: (() => void) | null;
  start: () => void;
  stop: () => void;
}
type RecognitionConstructor = new () => Recognition;

export function speechRecognition(): RecognitionConstructor | null {
  if (typeof window === "undefined") return null;
  const w = window as unknown as { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

/** Starts transcribing; `onText` gets the final sentences so far. Returns a stop function,
 * or null when this browser cannot transcribe. */
export function transcribe(onText: (text: string) => void, lang = document.documentElement.lang || "en-US"): (() => void) | null {
  const Ctor = speechRecognition();
  if (!Ctor) return null;
  const recognition = new Ctor();
  recognition.continuous = true;
  recognition.interimResults = false;
  recognition.lang = lang;
  const finals: string[] = [];
  recognition.onresult = (event) => {
    for (let i = event.resultIndex; i < event.results.length; i += 1) {
      const result = event.results[i]!;
      if (result.isFinal) finals.push(result[0].transcript.trim());
    }
    onText(finals.join(" "));
  };
  recognition.onerror = () => undefined;
  try {
    recognition.start();
  } catch {
    return null;
  }
  return () => recognition.stop();
}
