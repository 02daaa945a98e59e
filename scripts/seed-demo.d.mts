export const DEMO_TEST_LINK: string;
export interface DemoFile {
  name: string;
  kind: "image" | "video" | "subtitles";
  key: string;
  path: string;
  contentType: string;
  bytes: number;
}
export function demoContent(museumSlug: string): { sql: string; files: DemoFile[]; links: string[] };
export function putDemoFiles(files: DemoFile[], persistTo?: string): Promise<void>;
