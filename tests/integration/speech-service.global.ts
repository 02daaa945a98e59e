// Runs in Node before the integration projects (vitest's globalSetup): the local eSpeak service the `offline`
// speech engine reads with (decision 102), on the port vitest.integration.config.ts chose and passed to the
// Workers as OFFLINE_SPEECH_URL.
import { startSpeechServer } from "../../scripts/speech-server.mjs";

export default async function setup() {
  const port = Number(process.env.OFFLINE_SPEECH_PORT);
  if (!Number.isInteger(port) || port <= 0) throw new Error("OFFLINE_SPEECH_PORT was not set by vitest.integration.config.ts");
  const service = await startSpeechServer({ port });
  return () => service.close();
}
