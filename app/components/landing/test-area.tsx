import { useTranslation } from "react-i18next";
import type { Locale } from "~/i18n/config";
import { siteConfig } from "~/site-config";
import { PhonePicture } from "./phone-picture";

/**
 * The test area: the visitor page of the demo museum on a phone, and the test QR code. The code is a
 * link too; at 1080 px and below (a phone cannot scan its own screen) only the link shows.
 */
export function TestArea({ locale, qrDataUri }: { locale: Locale; qrDataUri: string }) {
  const { t } = useTranslation();
  const href = `/r/${siteConfig.demoVisitorLink}`;
  return (
    <div className="test-area">
      <figure className="test-area__demo">
        <PhonePicture base={`languages-${locale}`} alt={t("landing.pickerAlt")} />
        <figcaption>{t("landing.videoCaption")}</figcaption>
      </figure>
      <div className="test-area__qr">
        <a href={href} className="test-qr">
          <img className="test-qr__image" src={qrDataUri} alt={t("landing.qrAlt")} width={220} height={220} loading="lazy" />
          <span className="test-qr__label">{t("landing.testIt")}</span>
        </a>
      </div>
    </div>
  );
}
