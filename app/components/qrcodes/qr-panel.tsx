import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { qrFileName } from "~/qrcode/looks";
import { qrImageUrl, tourQrImageUrl } from "./qrcode-helpers";

/** What differs between an article's code (`/q/{link}`) and a tour's code (`/t/{link}`): the rest is one panel. */
const KINDS = {
  qrcode: {
    image: qrImageUrl,
    file: "qrcode",
    testId: "public-address",
    print: null,
    printStops: null,
    text: {
      imageAlt: "qrcodes.detail.imageAlt",
      downloadPng: "qrcodes.detail.downloadPng",
      downloadSvg: "qrcodes.detail.downloadSvg",
      address: "qrcodes.detail.address",
    },
  },
  tour: {
    image: tourQrImageUrl,
    file: "tour",
    testId: "tour-address",
    print: (id: number) => `/qrcodes/print?tours=${id}`,
    printStops: (id: number) => `/qrcodes/print?tour=${id}`,
    text: {
      imageAlt: "tours.qr.imageAlt",
      downloadPng: "tours.qr.downloadPng",
      downloadSvg: "tours.qr.downloadSvg",
      address: "tours.qr.address",
    },
  },
} as const;

interface QrPanelProps {
  /** Which code: an article's QR code (its id in `qrcode`) or a tour's own code (the tour's id). */
  kind: keyof typeof KINDS;
  id: number;
  link: string;
  address: string;
}

/** The code itself: its image, the files to download and the address it holds, to copy or type. */
export function QrPanel({ kind, id, link, address }: QrPanelProps) {
  const { t } = useTranslation();
  const { image, file, testId, print, printStops, text } = KINDS[kind];

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
      <img className="qr-panel__image" src={image(id, "png")} width={300} height={300} alt={t(text.imageAlt, { link, address })} />
      <div className="qr-panel__downloads">
        <a className="button button--small" href={image(id, "png")} download={`${file}-${link}.png`}>
          {t(text.downloadPng)}
        </a>
        <a className="button button--small button--ghost" href={image(id, "svg")} download={`${file}-${link}.svg`}>
          {t(text.downloadSvg)}
        </a>
      </div>
      {/* The spec's look, on request: readers that do not try inverted codes miss it (decision 115). */}
      <details className="qr-panel__look">
        <summary>{t("qrcodes.look.light-on-dark")}</summary>
        <p className="muted">{t("qrcodes.look.warning")}</p>
        <div className="qr-panel__downloads">
          <a className="button button--small button--ghost" href={image(id, "png", "light-on-dark")} download={qrFileName(file, link, "png", "light-on-dark")}>
            {t("qrcodes.look.downloadPng")}
          </a>
          <a className="button button--small button--ghost" href={image(id, "svg", "light-on-dark")} download={qrFileName(file, link, "svg", "light-on-dark")}>
            {t("qrcodes.look.downloadSvg")}
          </a>
        </div>
      </details>
      <p className="qr-panel__label">{t(text.address)}</p>
      <div className="qr-panel__address">
        <code data-testid={testId}>{address}</code>
        <button type="button" className="button button--small button--ghost" onClick={() => void copy()}>
          {t("qrcodes.detail.copy")}
          <span className="visually-hidden"> {t(text.address)}</span>
        </button>
      </div>
      {print && printStops ? (
        <div className="qr-panel__downloads">
          <a className="button button--small" href={printStops(id)}>
            {t("tours.qr.printStops")}
          </a>
          <a className="button button--small button--ghost" href={print(id)}>
            {t("tours.qr.print")}
          </a>
        </div>
      ) : null}
    </div>
  );
}
