import QRCode from "qrcode-svg";

/**
 * One layout for both outputs (SVG and PNG), so they are the same picture. Every position is a whole
 * pixel: modules are square blocks of `moduleSize` px and the code is centred in the image.
 * The numbers and their reading of the spec are in docs/decisions/013-qr-code-images.md.
 */
export const QR_IMAGE_PX = 300;
/**
 * Quiet zone, in modules: the 4 that ISO/IEC 18004 asks for, in the background colour. The spec's "margin 1"
 * left 1, which readers tolerate less than 4 once printed with a dark frame or table edge beside it
 * (docs/decisions/115-qr-codes-every-reader-decodes.md).
 */
export const QUIET_ZONE_MODULES = 4;
/** "size 0.6": the logo may hide at most 0.6 × the 30 % that level H can restore. */
const LOGO_SIZE = 0.6;
const LEVEL_H_CAPACITY = 0.3;
/** "margin 8": px of cleared space between the logo and the nearest drawn module. */
export const LOGO_MARGIN_PX = 8;
/**
 * At most 21×21 modules hidden: zbar read no code of version 13 (the longest base URL the configuration
 * allows, 3 px modules) with 23 or more hidden, every one with 21 (decision 115). Versions up to 10 hide fewer.
 */
const MAX_HIDDEN_SIDE = 21;
/** Finder pattern (7) plus its separator (1): the cleared square stays inside this border. */
const FINDER_BORDER_MODULES = 8;

export interface Box {
  x: number;
  y: number;
  size: number;
}

/** A horizontal run of drawn (dark in the QR sense) modules, in px. */
export interface Run {
  x: number;
  y: number;
  width: number;
}

export interface QrLayout {
  /** Image width and height, px. */
  size: number;
  moduleCount: number;
  moduleSize: number;
  /** Top-left px of module (0, 0). */
  origin: number;
  /** Modules hidden per side of the centred square under the logo (odd, so it is centred on a module). */
  hiddenModules: number;
  /** The cleared square: no module is drawn inside it. */
  clear: Box;
  /** The logo: `clear` minus the margin on each side. */
  logo: Box;
  /** The modules to draw, merged into horizontal runs. */
  runs: Run[];
}

export function qrLayout(data: string): QrLayout {
  const { modules } = new QRCode({ content: data, ecl: "H", padding: 0, join: true }).qrcode;
  const moduleCount = modules.length;
  const moduleSize = Math.floor(QR_IMAGE_PX / (moduleCount + 2 * QUIET_ZONE_MODULES));
  const origin = Math.floor((QR_IMAGE_PX - moduleCount * moduleSize) / 2);

  const hiddenModules = hiddenSide(moduleCount);
  const firstHidden = (moduleCount - hiddenModules) / 2;
  const isHidden = (i: number) => i >= firstHidden && i < firstHidden + hiddenModules;

  const clearSize = hiddenModules * moduleSize;
  const clearStart = origin + firstHidden * moduleSize;
  const clear = { x: clearStart, y: clearStart, size: clearSize };
  const logo = {
    x: clearStart + LOGO_MARGIN_PX,
    y: clearStart + LOGO_MARGIN_PX,
    size: clearSize - 2 * LOGO_MARGIN_PX,
  };

  const runs: Run[] = [];
  modules.forEach((row, r) => {
    let start = -1;
    for (let c = 0; c <= moduleCount; c++) {
      const drawn = c < moduleCount && row[c] === true && !(isHidden(r) && isHidden(c));
      if (drawn && start < 0) start = c;
      if (!drawn && start >= 0) {
        runs.push({ x: origin + start * moduleSize, y: origin + r * moduleSize, width: (c - start) * moduleSize });
        start = -1;
      }
    }
  });

  return { size: QR_IMAGE_PX, moduleCount, moduleSize, origin, hiddenModules, clear, logo, runs };
}

/**
 * qr-code-styling's rule for a square image: the largest odd n with n² ≤ the hidden-module budget,
 * capped so the square keeps clear of the finder patterns and their separators.
 */
function hiddenSide(moduleCount: number): number {
  const budget = Math.floor(LOGO_SIZE * LEVEL_H_CAPACITY * moduleCount * moduleCount);
  let side = Math.max(1, Math.floor(Math.sqrt(budget)));
  side = Math.min(side, moduleCount - 2 * FINDER_BORDER_MODULES, MAX_HIDDEN_SIDE);
  return side % 2 === 0 ? side - 1 : side;
}
