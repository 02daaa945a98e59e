export const MAX_INPUT: number;
export interface Espeak {
  voices: Set<string>;
  startupMs: number;
  wasmBytes: number;
  speak(text: string, voice: string, options?: { wpm?: number }): Uint8Array;
}
export interface SpeechServer {
  url: string;
  port: number;
  espeak: Espeak;
  close(): Promise<void>;
}
export function startSpeechServer(options?: { port?: number; host?: string; log?: (line: string) => void }): Promise<SpeechServer>;
