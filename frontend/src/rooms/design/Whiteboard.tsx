// The Excalidraw whiteboard bound to the `scene:<q>` document: the drawing is stored as JSON
// text under `elements` (throttled) by whoever may draw — the candidate, and the stage's
// coach — and each side merges the other's version in with Excalidraw's own reconciliation
// (per element, the higher version wins), so strokes drawn at the same time on both sides
// both survive. Deleted elements stay in the text as tombstones (`isDeleted`), or a
// deletion would be undone by the other side's copy. The view fits the drawing when it
// first arrives (the coach opens a board the candidate has drawn on), and on "Fit".
import "@excalidraw/excalidraw/index.css";

import { CaptureUpdateAction, Excalidraw, reconcileElements } from "@excalidraw/excalidraw";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type * as Y from "yjs";

const THROTTLE_MS = 500;

/** Excalidraw's own menus speak our languages under its language codes. */
const EXCALIDRAW_LANGUAGE: Record<string, string> = { en: "en", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW" };

export interface SceneElement {
  id: string;
  version: number;
  isDeleted?: boolean;
}
type Elements = readonly SceneElement[];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Api = any;

export function parseScene(text: unknown): Elements {
  if (typeof text !== "string" || !text) return [];
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** What identifies a drawing's state: every element's id and version. Saving skips a scene
 * whose signature is the one last read or written, so a merged remote scene is not echoed. */
export function sceneSignature(elements: Elements): string {
  return elements.map((e) => `${e.id}:${e.version}`).join(",");
}

export default function Whiteboard({ scene, editable }: { scene: Y.Map<unknown>; editable: boolean }) {
  const { t, i18n } = useTranslation();
  const [api, setApi] = useState<Api>(null);
  const initial = useMemo(() => ({ elements: parseScene(scene.get("elements")) }), [scene]);
  const lastText = useRef(String(scene.get("elements") ?? ""));
  const lastSignature = useRef(sceneSignature(initial.elements));
  const fitted = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<Elements | null>(null);
  const board = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!api) return;
    const fitOnce = (elements: Elements) => {
      if (fitted.current || !elements.some((e) => !e.isDeleted)) return;
      fitted.current = true;
      api.scrollToContent(undefined, { fitToContent: true, animate: false });
    };
    fitOnce(initial.elements);
    const onChange = () => {
      const text = String(scene.get("elements") ?? "");
      if (text === lastText.current) return;
      lastText.current = text;
      const merged = reconcileElements(api.getSceneElementsIncludingDeleted(), parseScene(text) as never, api.getAppState()) as unknown as Elements;
      lastSignature.current = sceneSignature(merged);
      api.updateScene({ elements: merged, captureUpdate: CaptureUpdateAction.NEVER });
      fitOnce(merged);
    };
    scene.observe(onChange);
    return () => scene.unobserve(onChange);
  }, [api, scene, initial]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const save = () => {
    timer.current = null;
    const elements = pending.current;
    if (!elements) return;
    const signature = sceneSignature(elements);
    if (signature === lastSignature.current) return;
    const text = JSON.stringify(elements);
    lastSignature.current = signature;
    lastText.current = text;
    scene.set("elements", text);
  };

  return (
    <div className="whiteboard" data-testid="whiteboard" ref={board}>
      <Excalidraw
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        initialData={initial as any}
        excalidrawAPI={(value: Api) => setApi(value)}
        viewModeEnabled={!editable}
        langCode={EXCALIDRAW_LANGUAGE[i18n.language] ?? "en"}
        onChange={(elements: Elements) => {
          // How many elements the board shows, for a look from outside (the browser tests).
          if (board.current) board.current.dataset.elements = String(elements.filter((e) => !e.isDeleted).length);
          if (!editable) return;
          pending.current = elements;
          if (!timer.current) timer.current = setTimeout(save, THROTTLE_MS);
        }}
        UIOptions={{ canvasActions: { loadScene: false, saveToActiveFile: false, export: false } }}
      />
      <button
        type="button"
        className="secondary small whiteboard-fit"
        onClick={() => api?.scrollToContent(undefined, { fitToContent: true, animate: true })}
        disabled={!api}
      >
        {t("rooms:design.fit")}
      </button>
    </div>
  );
}
