// The fireworks' worker: draws the burst on the canvas the page handed over (OffscreenCanvas), so the
// page's main thread does nothing per frame. Posts one message when the flags have stopped.
import { animate, type Stage } from "./fireworks";

interface Message {
  canvas: OffscreenCanvas;
  stage: Stage;
}
/** The parts of a dedicated worker's global scope used here (the project's TypeScript lib is DOM). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<Message>) => void) | null;
  postMessage(message: unknown): void;
  requestAnimationFrame?: (cb: () => void) => number;
}
const scope = self as unknown as WorkerScope;

scope.onmessage = (event) => {
  const { canvas, stage } = event.data;
  const g = canvas.getContext("2d");
  if (!g) {
    scope.postMessage("done");
    return;
  }
  const frame = scope.requestAnimationFrame ? scope.requestAnimationFrame.bind(scope) : (cb: () => void) => setTimeout(cb, 1000 / 60);
  animate(
    g,
    stage,
    (side) => new OffscreenCanvas(side, side),
    frame,
    () => scope.postMessage("done"),
  );
};
