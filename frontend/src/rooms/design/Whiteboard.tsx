// The Excalidraw whiteboard bound to the `scene:<q>` document: the candidate's drawing is
// stored as JSON text under `elements` (throttled), the coach's copy follows it read-only.
import "@excalidraw/excalidraw/index.css";

import { Excalidraw } from "@excalidraw/excalidraw";
import { useEffect, useMemo, useRef, useState } from "react";
import type * as Y from "yjs";

const THROTTLE_MS = 500;

type Elements = readonly { isDeleted?: boolean; version?: number }[];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Api = any;

function parse(text: unknown): Elements {
  if (typeof text !== "string" || !text) return [];
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

export default function Whiteboard({ scene, editable }: { scene: Y.Map<unknown>; editable: boolean }) {
  const [api, setApi] = useState<Api>(null);
  const initial = useMemo(() => ({ elements: parse(scene.get("elements")) }), [scene]);
  const lastText = useRef(String(scene.get("elements") ?? ""));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<Elements | null>(null);

  useEffect(() => {
    if (!api) return;
    const onChange = () => {
      const text = String(scene.get("elements") ?? "");
      if (text === lastText.current) return;
      lastText.current = text;
      api.updateScene({ elements: parse(text) });
    };
    scene.observe(onChange);
    return () => scene.unobserve(onChange);
  }, [api, scene]);

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
    const text = JSON.stringify(elements.filter((e) => !e.isDeleted));
    if (text === lastText.current) return;
    lastText.current = text;
    scene.set("elements", text);
  };

  return (
    <div className="whiteboard" data-testid="whiteboard">
      <Excalidraw
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        initialData={initial as any}
        excalidrawAPI={(value: Api) => setApi(value)}
        viewModeEnabled={!editable}
        onChange={(elements: Elements) => {
          if (!editable) return;
          pending.current = elements;
          if (!timer.current) timer.current = setTimeout(save, THROTTLE_MS);
        }}
        UIOptions={{ canvasActions: { loadScene: false, saveToActiveFile: false, export: false } }}
      />
    </div>
  );
}
