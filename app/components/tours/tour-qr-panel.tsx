import { useTranslation } from "react-i18next";

export const tourQrUrl = (id: number, format: "png" | "svg" = "png") => `/api/read/tour_qrcode?id=${id}&format=${format}`;

/** The tour's own code (`/t/{link}`): its image, the files to download, and the address to type. */
export function TourQrPanel({ id, link, address }: { id: number; link: string; address: string }) {
  const { t } = useTranslation();
  return (
    <div className="qr-panel">
      <img className="qr-panel__image" src={tourQrUrl(id, "png")} width={300} height={300} alt={t("tours.qr.imageAlt", { address })} />
      <div className="qr-panel__downloads">
        <a className="button button--small" href={tourQrUrl(id, "png")} download={`tour-${link}.png`}>
          {t("tours.qr.downloadPng")}
        </a>
        <a className="button button--small button--ghost" href={tourQrUrl(id, "svg")} download={`tour-${link}.svg`}>
          {t("tours.qr.downloadSvg")}
        </a>
      </div>
      <p className="qr-panel__label">{t("tours.qr.address")}</p>
      <div className="qr-panel__address">
        <code data-testid="tour-address">{address}</code>
      </div>
      <a className="button button--small button--ghost" href={`/qrcodes/print?tours=${id}`}>
        {t("tours.qr.print")}
      </a>
    </div>
  );
}
