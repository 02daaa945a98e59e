import { describe, expect, it } from "vitest";
import { sniffImage, sniffSubtitles, sniffVideo } from "~/models/media-types";
import { parseRange } from "~/utils/media-response.server";
import { multipartBoundary } from "~/utils/multipart.server";

const b = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)));
const ftyp = (...brands: string[]) => b([0, 0, 0, 8 + 4 * (brands.length + 1)], "ftyp", brands[0]!, [0, 0, 0, 0], brands.slice(1).join(""));

describe("magic bytes", () => {
  it("recognise the image types and nothing else", () => {
    expect(sniffImage(b([0x89], "PNG\r\n", [0x1a, 0x0a]))?.contentType).toBe("image/png");
    expect(sniffImage(b([0xff, 0xd8, 0xff, 0xdb]))?.contentType).toBe("image/jpeg");
    expect(sniffImage(b("GIF87a"))?.contentType).toBe("image/gif");
    expect(sniffImage(b("RIFF", [0, 0, 0, 0], "WEBPVP8L"))?.contentType).toBe("image/webp");
    expect(sniffImage(ftyp("avif", "mif1"))?.contentType).toBe("image/avif");
    expect(sniffImage(ftyp("mif1", "avif"))?.contentType).toBe("image/avif");
    for (const other of [b("<svg"), b("<?xml"), b("RIFF", [0, 0, 0, 0], "WAVE"), ftyp("heic", "mif1"), ftyp("isom"), b(""), b("GIF8")]) {
      expect(sniffImage(other)).toBeNull();
    }
  });

  it("recognise MP4 and WebM, not a still image in the same container", () => {
    expect(sniffVideo(ftyp("isom", "mp41"))).toEqual({ contentType: "video/mp4", ext: "mp4" });
    expect(sniffVideo(ftyp("qt  "))?.ext).toBe("mp4");
    expect(sniffVideo(b([0x1a, 0x45, 0xdf, 0xa3]))).toEqual({ contentType: "video/webm", ext: "webm" });
    for (const other of [ftyp("avif"), ftyp("heic"), b("RIFF"), b([0x1a, 0x45, 0xdf]), b([0, 0, 0, 8], "moov")]) expect(sniffVideo(other)).toBeNull();
  });

  it("recognise WebVTT with or without a BOM", () => {
    for (const ok of [b("WEBVTT"), b("WEBVTT\n"), b("WEBVTT - x"), b("WEBVTT\tx"), b([0xef, 0xbb, 0xbf], "WEBVTT\r\n")])
      expect(sniffSubtitles(ok)?.contentType).toBe("text/vtt");
    for (const bad of [b("WEBVTTX"), b(" WEBVTT"), b("webvtt"), b("WEBVT"), b([0xfe, 0xff], "WEBVTT")]) expect(sniffSubtitles(bad)).toBeNull();
  });
});

describe("parseRange", () => {
  it("reads one byte range against a size", () => {
    expect(parseRange("bytes=0-9", 100)).toEqual({ offset: 0, length: 10 });
    expect(parseRange("bytes=90-", 100)).toEqual({ offset: 90, length: 10 });
    expect(parseRange("bytes=-10", 100)).toEqual({ offset: 90, length: 10 });
    expect(parseRange("bytes=-500", 100)).toEqual({ offset: 0, length: 100 });
    expect(parseRange("bytes=50-500", 100)).toEqual({ offset: 50, length: 50 });
    expect(parseRange("bytes=99-99", 100)).toEqual({ offset: 99, length: 1 });
  });

  it("says unsatisfiable past the end, and ignores what it cannot read", () => {
    for (const h of ["bytes=100-", "bytes=100-200", "bytes=-0"]) expect(parseRange(h, 100)).toBe("unsatisfiable");
    expect(parseRange("bytes=0-", 0)).toBe("unsatisfiable");
    for (const h of [null, "", "bytes=", "bytes=-", "bytes=5-1", "bytes=0-1,3-4", "items=0-1", "bytes=a-b", "bytes = 0-1"])
      expect(parseRange(h, 100)).toBeNull();
  });
});

describe("multipartBoundary", () => {
  it("takes a plain or quoted boundary of 1 to 70 characters", () => {
    expect(multipartBoundary("multipart/form-data; boundary=----WebKitFormBoundaryabc")).toBe("----WebKitFormBoundaryabc");
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; BOUNDARY="a b:c"')).toBe("a b:c");
    for (const bad of [
      null,
      "multipart/form-data",
      "multipart/mixed; boundary=x",
      "multipart/form-data; boundary=",
      `multipart/form-data; boundary=${"x".repeat(71)}`,
    ]) {
      expect(multipartBoundary(bad)).toBeNull();
    }
  });
});
