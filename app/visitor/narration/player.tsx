import type { PlayableNarration } from "~/narration/narrations.server";

/** 3:05, 1:02:09: how long a narration lasts, the way players show it. */
export function clockDuration(ms: number): string {
  // Whole seconds cut down, as the browsers' own players show them (8.6 s → 0:08).
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** ISO 8601 duration for `<time datetime>`: PT3M5S. */
const isoDuration = (ms: number) => `PT${Math.round(ms / 1000)}S`;

/**
 * The narration above the text (issue 22): the browser's own player, nothing loaded before the visitor
 * presses play (`preload="none"`), its length beside the label. The page's text is its transcript.
 */
export function NarrationPlayer({ narration, label, ui }: { narration: PlayableNarration; label: string; ui: { lang?: string; dir?: string } }) {
  return (
    <div className="v-listen">
      <p id="v-listen-label" {...ui}>
        {label}
        {narration.durationMs !== null && narration.durationMs > 0 ? (
          <>
            {" "}
            <time dateTime={isoDuration(narration.durationMs)}>{clockDuration(narration.durationMs)}</time>
          </>
        ) : null}
      </p>
      <audio id="v-audio" controls preload="none" aria-labelledby="v-listen-label">
        <source src={narration.url} type={narration.contentType} />
      </audio>
    </div>
  );
}
