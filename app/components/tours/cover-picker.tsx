import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { apiErrorMessage, type ApiFailure } from "~/utils/api-client";

interface Props {
  images: string[];
  value: string | null;
  onChange: (cover: string | null) => void;
}

/** The cover: none, one of the museum's images, or a new one sent through the existing image upload. */
export function CoverPicker({ images, value, onChange }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [uploaded, setUploaded] = useState<string[]>([]);
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  const all = [...new Set([...(value ? [value] : []), ...uploaded, ...images])];

  async function send(file: File) {
    setBusy(true);
    setStatus(t("tours.cover.uploading"));
    const form = new FormData();
    form.append("image", file, file.name);
    try {
      const response = await fetch("/api/upload/image", { method: "POST", body: form, credentials: "same-origin" });
      const body = (await response.json().catch(() => null)) as { mediaUrl?: string; error?: ApiFailure["error"] } | null;
      if (response.ok && body?.mediaUrl) {
        setUploaded((list) => [body.mediaUrl!, ...list]);
        onChange(body.mediaUrl);
        setStatus(t("tours.cover.uploaded"));
      } else {
        setStatus(apiErrorMessage(t, { ok: false, status: response.status, error: body?.error ?? { code: "unknown", message: "" } }));
      }
    } catch {
      setStatus(t("tours.cover.uploadFailed"));
    }
    setBusy(false);
  }

  return (
    <fieldset className="cover-picker">
      <legend>{t("tours.cover.legend")}</legend>
      <div className="cover-picker__grid">
        <label className="cover-picker__option cover-picker__option--none">
          <input type="radio" name={`${id}-cover`} checked={value === null} onChange={() => onChange(null)} />
          <span>{t("tours.cover.none")}</span>
        </label>
        {all.map((src, index) => (
          <label key={src} className="cover-picker__option">
            <input type="radio" name={`${id}-cover`} checked={value === src} onChange={() => onChange(src)} />
            <img src={src} alt={t("tours.cover.imageAlt", { number: index + 1 })} loading="lazy" width={96} height={72} />
          </label>
        ))}
      </div>
      <div className="field cover-picker__upload">
        <label htmlFor={`${id}-file`}>{t("tours.cover.upload")}</label>
        <input
          id={`${id}-file`}
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          disabled={busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void send(file);
            event.target.value = "";
          }}
        />
      </div>
      <p className="muted" role="status">
        {status}
      </p>
    </fieldset>
  );
}
