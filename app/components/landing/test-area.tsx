import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Locale } from "~/i18n/config";
import { siteConfig } from "~/site-config";

/**
 * The demo video in a phone frame: a poster (the recording's first frame) until a click on the phone starts
 * it. The poster is a link to the WebM file, so without JavaScript the click still plays it. The files are
 * recorded from the visitor page by scripts/demo-video.mjs, one per interface language.
 */
function DemoVideo({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  const [playing, setPlaying] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const src = `/site/demo-${locale}.webm`;
  const poster = `/site/demo-${locale}.webp`;
  useEffect(() => {
    // The link that had focus is gone: focus goes to the player that replaced it.
    if (playing) video.current?.focus();
  }, [playing]);
  return (
    <div className="phone">
      {playing ? (
        <video
          ref={video}
          className="phone__screen"
          src={src}
          poster={poster}
          width={390}
          height={844}
          autoPlay
          muted
          playsInline
          controls
          aria-label={t("landing.videoLabel")}
        />
      ) : (
        <a
          href={src}
          type="video/webm"
          className="phone__play"
          onClick={(event) => {
            event.preventDefault();
            setPlaying(true);
          }}
        >
          <img className="phone__screen" src={poster} alt="" width={390} height={844} loading="lazy" decoding="async" />
          <span className="phone__play-icon" aria-hidden="true" />
          <span className="visually-hidden">{t("landing.playVideo")}</span>
        </a>
      )}
    </div>
  );
}

/**
 * The test area: the demo video of the visitor page, and the test QR code. The code is a link too; at
 * 1080 px and below (a phone cannot scan its own screen) only the link shows.
 */
export function TestArea({ locale, qrDataUri }: { locale: Locale; qrDataUri: string }) {
  const { t } = useTranslation();
  const href = `/r/${siteConfig.demoVisitorLink}`;
  return (
    <div className="test-area">
      <figure className="test-area__demo">
        <DemoVideo locale={locale} />
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
