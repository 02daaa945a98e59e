// The browser half of fitting an image under the upload limit: decode once, then encode attempts chosen
// by image-fit.ts until one fits. WebP first; a browser whose canvas cannot write WebP hands back PNG,
// so from then on JPEG is used.
import { encodedFileName, firstFitStep, fitsBudget, IMAGE_MAX_BYTES, nextFitStep } from "./image-fit";

type OutputType = "image/webp" | "image/jpeg";

function encode(canvas: HTMLCanvasElement, type: OutputType, quality: number): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, quality));
}

/**
 * Whether the browser can read the file as a picture: false for bytes that are not an image (a renamed
 * document, a truncated download), null when this browser cannot tell (no createImageBitmap).
 */
export async function canDecodeImage(file: Blob): Promise<boolean | null> {
  if (typeof createImageBitmap !== "function") return null;
  try {
    (await createImageBitmap(file)).close();
    return true;
  } catch {
    return false;
  }
}

/** A file at most IMAGE_MAX_BYTES long showing the same picture, or null when none could be made. */
export async function fitImage(file: File, budget = IMAGE_MAX_BYTES): Promise<File | null> {
  if (fitsBudget(file.size, budget)) return file;
  if (typeof createImageBitmap !== "function") return null;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return null;
  }
  try {
    const canvas = document.createElement("canvas");
    const context = canvas.getContext("2d");
    if (!context) return null;
    let type: OutputType = "image/webp";
    let step = firstFitStep(bitmap.width, bitmap.height);
    while (step) {
      canvas.width = step.width;
      canvas.height = step.height;
      // JPEG has no transparency: paint white behind the picture rather than let it turn black.
      if (type === "image/jpeg") {
        context.fillStyle = "#ffffff";
        context.fillRect(0, 0, step.width, step.height);
      } else {
        context.clearRect(0, 0, step.width, step.height);
      }
      context.imageSmoothingQuality = "high";
      context.drawImage(bitmap, 0, 0, step.width, step.height);
      const blob = await encode(canvas, type, step.quality);
      if (!blob) return null;
      if (blob.type !== type) {
        if (type === "image/jpeg") return null;
        type = "image/jpeg";
        continue;
      }
      if (fitsBudget(blob.size, budget)) return new File([blob], encodedFileName(file.name, type), { type });
      step = nextFitStep(step, blob.size, budget);
    }
    return null;
  } finally {
    bitmap.close();
  }
}
