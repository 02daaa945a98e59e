import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { qrImageUrl } from "./qrcode-helpers";

interface QrPanelProps {
  id: number;
  link: string;
  address: string;
}

/** The code itself: its image, the files to download and the address it holds, to copy or type. */
export function QrPanel({ id, link, address }: QrPanelProps) {
  const { t } = useTranslation();

  async function copy() {
    try {
      await navigator.clipboard.writeText(address);
      toast.success(t("qrcodes.detail.copied"), { id: "qrcode-copy" });
    } catch (error) {
      console.error(error);
      toast.error(t("qrcodes.detail.copyFailed"), { id: "qrcode-copy" });
    }
  }

  return (
    <div className="qr-panel">
      <img
        className="qr-panel__image"
        src={qrImageUrl(id, "png")}
        width={300}
        height={300}
        alt={t("qrcodes.detail.imageAlt", { link, address })}
      />
      <div className="qr-panel__downloads">
        <a className="button button--small" href={qrImageUrl(id, "png")} download={`qrcode-${link}.png`}>
          {t("qrcodes.detail.downloadPng")}
        </a>
        <a className="button button--small button--ghost" href={qrImageUrl(id, "svg")} download={`qrcode-${link}.svg`}>
          {t("qrcodes.detail.downloadSvg")}
        </a>
      </div>
      <p className="qr-panel__label">{t("qrcodes.detail.address")}</p>
      <div className="qr-panel__address">
        <code data-testid="public-address">{address}</code>
        <button type="button" className="button button--small button--ghost" onClick={() => void copy()}>
          {t("qrcodes.detail.copy")}
          <span className="visually-hidden"> {t("qrcodes.detail.address")}</span>
        </button>
      </div>
    </div>
  );
}
