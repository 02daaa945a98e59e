/**
 * The two looks of a printed code (issue 29, docs/decisions/115-qr-codes-every-reader-decodes.md):
 * - `dark-on-light`, the default everywhere (downloads, print sheet): black modules on white, what every
 *   reader decodes, zbar included;
 * - `light-on-dark`, the spec's look (white modules on black): kept on request, but readers that do not try
 *   inverted codes (zbar as shipped, some phone apps) do not see it.
 * The logo is the same in both. Pure: imported by the pages in the browser as well as by the renderer.
 */
export const QR_LOOKS = ["dark-on-light", "light-on-dark"] as const;
export type QrLook = (typeof QR_LOOKS)[number];
export const DEFAULT_QR_LOOK: QrLook = "dark-on-light";

/**
 * `ground` fills the image (quiet zone and light modules); `modules` is the colour of the dark modules;
 * `logo` the logo's rounded square and its "M". On a light code the logo is light too (a pale square, the
 * "M" in the brand's purple): the brand's dark square with a white "M" made zbar fail on whole versions
 * (7, 8, 9, 13 of level H: 0 of 54 read, decision 115), as if it took the "M" for an alignment pattern.
 */
export const LOOK_COLOURS: Record<QrLook, { ground: string; modules: string; logo: { ground: string; mark: string } }> = {
  "dark-on-light": { ground: "#fff", modules: "#000", logo: { ground: "#f1ebf3", mark: "#341539" } },
  "light-on-dark": { ground: "#000", modules: "#fff", logo: { ground: "#341539", mark: "#fff" } },
};

export function isQrLook(value: unknown): value is QrLook {
  return typeof value === "string" && (QR_LOOKS as readonly string[]).includes(value);
}

/** The download's name: `qrcode-{link}.png`, and `qrcode-{link}-white-on-black.png` for the spec's look. */
export function qrFileName(kind: "qrcode" | "tour", link: string, format: "png" | "svg", look: QrLook): string {
  return `${kind}-${link}${look === "light-on-dark" ? "-white-on-black" : ""}.${format}`;
}
