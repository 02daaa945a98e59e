// What the editor knows of the article's uploaded files (issue 20): their own names and sizes, read with the
// article (the page's loader) and added to as files are uploaded, so a form says "clip.mp4 (12.4 MB)"
// rather than a storage path. A file uploaded before names were kept says its kind and size instead.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import type { UploadKind } from "./upload";

export interface MediaFileInfo {
  name: string | null;
  kind: UploadKind;
  bytes: number;
}

interface MediaFiles {
  lookup: (src: string) => MediaFileInfo | undefined;
  remember: (src: string, info: MediaFileInfo) => void;
}

const Context = createContext<MediaFiles>({ lookup: () => undefined, remember: () => undefined });

export function MediaFilesProvider({ initial, children }: { initial: Record<string, MediaFileInfo>; children: ReactNode }) {
  const [added, setAdded] = useState<Record<string, MediaFileInfo>>({});
  const remember = useCallback((src: string, info: MediaFileInfo) => setAdded((current) => ({ ...current, [src]: info })), []);
  // The loader's answer wins for files it knows (a reload after "take theirs" brings names of their uploads).
  const value = useMemo<MediaFiles>(() => ({ lookup: (src) => initial[src] ?? added[src], remember }), [initial, added, remember]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export const useMediaFiles = () => useContext(Context);

/** "12.4 MB", "830 kB" in the page's language (decimal units, as file managers show them). */
export function formatBytes(bytes: number, locale: string): string {
  const mega = bytes >= 1_000_000;
  return new Intl.NumberFormat(locale, { style: "unit", unit: mega ? "megabyte" : "kilobyte", maximumFractionDigits: 1 }).format(
    mega ? bytes / 1_000_000 : Math.max(0.1, bytes / 1000),
  );
}
