import type { Espeak } from "./speech-server.mjs";
export const DEFAULT_WPM: number;
export function createEspeak(): Promise<Espeak>;
