import { useEffect, useRef, useState, type ChangeEvent } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { safeMediaSrc } from "~/content/urls";
import { apiErrorMessage } from "~/utils/api-client";
import { useFieldError } from "../field-errors";
import { formatBytes, useMediaFiles } from "../media-files";
import { isSvgFile } from "../image-fit";
import { IMAGE_MAX_BYTES } from "../image-fit";
import { canDecodeImage, fitImage } from "../image-resize";
import { upload, type UploadAnswer, type UploadKind } from "../upload";

const ACCEPT: Record<UploadKind, string> = {
  // Not image/*: that would offer SVG, which is refused.
  image: "image/jpeg,image/png,image/webp,image/gif,image/avif",
  video: "video/*",
  subtitles: ".vtt,text/vtt",
};

type Status = { state: "idle" } | { state: "preparing" } | { state: "uploading"; progress: number } | { state: "done" } | { state: "error"; message: string };

interface UploadFieldProps {
  id: string;
  kind: UploadKind;
  label: string;
  /** The element's current media address, "" when none. */
  value: string;
  articleId: number;
  videoId?: string;
  onUploaded: (answer: UploadAnswer) => void;
  /** When given and there is a file, a button to remove it (an optional image). */
  onClear?: () => void;
  clearLabel?: string;
}

/**
 * A file picker that uploads at once, with a progress bar. Images over the limit are first re-encoded
 * smaller in the browser; the "too large" message appears only when that fails or the server says 413.
 */
export function UploadField({ id, kind, label, value, articleId, videoId, onUploaded, onClear, clearLabel }: UploadFieldProps) {
  const { t, i18n } = useTranslation();
  // The files' names and sizes (read with the article, added to on upload): never the /media/… path.
  const files = useMediaFiles();
  const [status, setStatus] = useState<Status>({ state: "idle" });
  const abort = useRef<(() => void) | null>(null);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      abort.current?.();
    };
  }, []);

  const busy = status.state === "preparing" || status.state === "uploading";
  const tooLarge = kind === "image" ? t("editor.fields.upload.imageTooLarge") : t("editor.fields.upload.fileTooLarge");
  // Bytes that are not the kind of file asked for, said as such (decision 069), not as "invalid".
  const unreadable = t(`editorErrors.${kind}Unreadable`);
  const refused = useFieldError(id);

  async function send(file: File) {
    let body: File = file;
    if (kind === "image") {
      if (isSvgFile(file)) return setStatus({ state: "error", message: t("editor.fields.upload.svgRefused") });
      setStatus({ state: "preparing" });
      const small = file.size <= IMAGE_MAX_BYTES;
      const fitted = small ? ((await canDecodeImage(file)) === false ? null : file) : await fitImage(file);
      if (!alive.current) return;
      if (!fitted) {
        const message = small || (await canDecodeImage(file)) === false ? unreadable : tooLarge;
        if (!alive.current) return;
        toast.error(message);
        return setStatus({ state: "error", message });
      }
      body = fitted;
    }
    setStatus({ state: "uploading", progress: 0 });
    const request = upload({
      kind,
      file: body,
      fileName: body.name,
      articleId,
      videoId,
      onProgress: (progress) => alive.current && setStatus({ state: "uploading", progress }),
    });
    abort.current = request.abort;
    const result = await request.result;
    abort.current = null;
    if (!alive.current) return;
    if (result.ok) {
      files.remember(result.data.mediaUrl, { name: result.data.originalName ?? (file.name || null), kind, bytes: result.data.bytes ?? body.size });
      onUploaded(result.data);
      return setStatus({ state: "done" });
    }
    console.error(`Upload of ${kind} failed`, result.status, result.error);
    const message = result.status === 413 ? tooLarge : result.status === 415 ? unreadable : apiErrorMessage(t, result);
    // The spec's notification (top right, 5 s) and, beside the field, the same words until the next try.
    toast.error(message);
    setStatus({ state: "error", message });
  }

  function onPick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again (after fixing it) fires a change.
    event.target.value = "";
    if (file && !busy) void send(file);
  }

  const statusId = `${id}-status`;
  const currentId = `${id}-current`;
  const src = safeMediaSrc(value);
  const info = src ? files.lookup(src) : undefined;
  const fileLabel = !info
    ? t("editorErrors.fileUnknown")
    : info.name
      ? t("editorErrors.fileSummary", { name: info.name, size: formatBytes(info.bytes, i18n.language) })
      : t(`editorErrors.fileOfKind.${info.kind}`, { size: formatBytes(info.bytes, i18n.language) });
  const shownError = status.state === "error" ? status.message : refused;
  return (
    <div className="ef-upload">
      <div className="field ef-field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          type="file"
          accept={ACCEPT[kind]}
          disabled={busy}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={`${currentId} ${statusId}`}
          onChange={onPick}
        />
      </div>
      <p id={currentId} className="ef-upload__current">
        {src ? (
          <>
            {t("editor.fields.upload.current")} {/* bdi: a right-to-left name keeps its own order, and the size stays after it. */}
            <bdi className="ef-upload__url">{fileLabel}</bdi>
          </>
        ) : (
          t("editor.fields.upload.none")
        )}
      </p>
      {kind === "image" && src ? <img className="ef-upload__preview" src={src} alt="" /> : null}
      {status.state === "uploading" ? (
        <div className="ef-upload__progress">
          <label htmlFor={`${id}-progress`}>{t("editor.fields.upload.progress")}</label>
          <progress id={`${id}-progress`} max={1} value={status.progress}>
            {Math.round(status.progress * 100)} %
          </progress>
        </div>
      ) : null}
      <p id={statusId} className={shownError ? "ef-error" : "ef-status"} role={status.state === "error" ? "alert" : "status"}>
        {status.state === "preparing" ? t("editor.fields.upload.preparing") : status.state === "done" ? t("editor.fields.upload.done") : (shownError ?? null)}
      </p>
      {onClear && src ? (
        <button type="button" className="button button--ghost ef-button" disabled={busy} onClick={onClear}>
          {clearLabel ?? t("editor.fields.upload.remove")}
        </button>
      ) : null}
    </div>
  );
}
