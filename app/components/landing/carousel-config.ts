import type { SwiperOptions } from "swiper/types";

export const AUTOPLAY_MS = 2400;
export const CENTER_ABOVE_PX = 1080;

/**
 * The spec's carousel: autoplay every 2400 ms, infinite, not draggable, centred above 1080 px; the
 * second configuration's breakpoints: 1 item up to 1024 px, 3 from 1024 with a 40 px partial-visibility
 * gutter (the slides are narrowed by 40 px in CSS so the next one shows; `slidesPerView: "auto"`).
 */
export function carouselOptions(windowWidth: number, reducedMotion: boolean): SwiperOptions {
  return {
    loop: true,
    allowTouchMove: false,
    simulateTouch: false,
    keyboard: false,
    centeredSlides: windowWidth > CENTER_ABOVE_PX,
    autoplay: reducedMotion ? false : { delay: AUTOPLAY_MS, disableOnInteraction: false, pauseOnMouseEnter: true },
    slidesPerView: 1,
    spaceBetween: 16,
    breakpoints: {
      0: { slidesPerView: 1 },
      464: { slidesPerView: 1 },
      1024: { slidesPerView: "auto", spaceBetween: 16 },
    },
    a11y: { enabled: false },
  };
}
