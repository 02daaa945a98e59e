import { memo, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Swiper as SwiperInstance } from "swiper";
import { siteConfig } from "~/site-config";
import { carouselOptions } from "./carousel-config";

const TOTAL = siteConfig.partnerMuseum.photoCount;
export const SLIDES = Array.from({ length: TOTAL }, (_, i) => `/site/carousel/${String(i + 1).padStart(2, "0")}.svg`);

/**
 * The partner-museum carousel. The slides are server-rendered; Swiper (and its CSS) is downloaded only
 * when the carousel comes near the viewport. A click on a picture opens it enlarged in a dialog that
 * Escape or a click outside closes, focus going back to the picture.
 */
export function Carousel() {
  const { t } = useTranslation();
  const root = useRef<HTMLDivElement>(null);
  const swiper = useRef<SwiperInstance | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [playing, setPlaying] = useState(true);

  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (reduced) setPlaying(false);
    let cancelled = false;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        void (async () => {
          // Fetched in parallel; `const { Autoplay } = await import(…)` lets the bundler keep only that
          // module out of swiper/modules.
          const core = import("swiper");
          const css = import("swiper/css");
          const { Autoplay } = await import("swiper/modules");
          const { Swiper } = await core;
          await css;
          if (cancelled) return;
          swiper.current = new Swiper(el, { modules: [Autoplay], ...carouselOptions(window.innerWidth, reduced) });
        })();
      },
      { rootMargin: "300px" },
    );
    observer.observe(el);
    return () => {
      cancelled = true;
      observer.disconnect();
      swiper.current?.destroy();
    };
  }, []);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open !== null && !el.open) el.showModal();
    if (open === null && el.open) el.close();
  }, [open]);

  const togglePlay = () => {
    const autoplay = swiper.current?.autoplay;
    if (playing) autoplay?.stop();
    else autoplay?.start();
    setPlaying(!playing);
  };

  return (
    <div className="carousel">
      <div className="carousel__controls">
        <button type="button" className="button button--ghost button--small" onClick={() => swiper.current?.slidePrev()} aria-label={t("landing.previous")}>
          <span aria-hidden="true">←</span>
        </button>
        <button type="button" className="button button--ghost button--small" onClick={togglePlay} aria-pressed={!playing}>
          {playing ? t("landing.pause") : t("landing.play")}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={() => swiper.current?.slideNext()} aria-label={t("landing.next")}>
          <span aria-hidden="true">→</span>
        </button>
      </div>
      <div className="swiper carousel__swiper" ref={root} role="region" aria-roledescription="carousel" aria-label={t("landing.carouselLabel")}>
        <Slides onOpen={setOpen} />
      </div>
      <dialog
        ref={dialog}
        className="carousel__overlay"
        aria-label={t("landing.overlayLabel")}
        onClose={() => setOpen(null)}
        onClick={(event) => {
          // A click on the backdrop (outside the picture and the button) closes.
          if (event.target === event.currentTarget) setOpen(null);
        }}
      >
        {open !== null ? (
          <>
            <img src={SLIDES[open]} alt={t("landing.slideAlt", { n: open + 1, total: TOTAL })} width={800} height={600} />
            <form method="dialog">
              <button type="submit" className="button carousel__close" autoFocus>
                {t("landing.overlayClose")}
              </button>
            </form>
          </>
        ) : null}
      </dialog>
    </div>
  );
}

/**
 * Memoised: Swiper moves these nodes around in loop mode, so React must never re-render them after
 * hydration (opening the overlay changes the parent's state, not this list).
 */
const Slides = memo(function Slides({ onOpen }: { onOpen: (index: number) => void }) {
  const { t } = useTranslation();
  return (
    <div className="swiper-wrapper">
      {SLIDES.map((src, i) => (
        <div key={src} className="swiper-slide carousel__slide">
          <button type="button" className="carousel__open" onClick={() => onOpen(i)} aria-label={t("landing.slideOpen", { n: i + 1 })}>
            <img src={src} alt={t("landing.slideAlt", { n: i + 1, total: TOTAL })} width={800} height={600} loading="lazy" decoding="async" />
          </button>
        </div>
      ))}
    </div>
  );
});
