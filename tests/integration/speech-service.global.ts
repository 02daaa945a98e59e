// Runs in Node before the integration projects (vitest's globalSetup): the local eSpeak service the `offline`
// speech engine reads with (decision 102), on the port vitest.integration.config.ts chose and passed to the
// Workers as OFFLINE_SPEECH_URL.
import type { TestProject } from "vitest/node";
import { startSpeechServer } from "../../scripts/speech-server.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    offlineSpeechPort: number;
  }
}

export default async function setup(project: TestProject) {
  const port = project.getProvidedContext().offlineSpeechPort;
  if (!Number.isInteger(port) || port <= 0) throw new Error("vitest.integration.config.ts provides no offlineSpeechPort");
  const service = await startSpeechServer({ port });
  return () => service.close();
}
