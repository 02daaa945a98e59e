import { useFetcher, useLocation } from "@remix-run/react";
import { useCallback, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useOutsidePress } from "~/hooks/use-outside-press";
import { SUPPORTED_LOCALES, type Locale } from "~/i18n/config";

export function LanguageSwitcher({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const fetcher = useFetcher();
  const location = useLocation();
  const menuId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  // The chosen language's button disappears with the menu: focus goes back to the switcher, not <body>.
  const choose = useCallback(() => {
    setOpen(false);
    toggle.current?.focus();
  }, []);
  useOutsidePress(ref, open, close);

  return (
    <div className="lang-switcher" ref={ref}>
      <button
        ref={toggle}
        type="button"
        className="lang-switcher__button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={t("nav.languageCurrent", { code: locale.toUpperCase() })}
        onClick={() => setOpen((v) => !v)}
      >
        {locale.toUpperCase()}
      </button>
      {open ? (
        <fetcher.Form method="post" action="/resources/language" id={menuId} className="lang-switcher__menu" onSubmit={choose}>
          <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
          {SUPPORTED_LOCALES.map((lng: Locale) => (
            <button
              key={lng}
              type="submit"
              name="lng"
              value={lng}
              lang={lng}
              aria-current={lng === locale ? "true" : undefined}
              title={t(lng === "fr" ? "nav.languageFr" : "nav.languageEn")}
            >
              {lng.toUpperCase()}
            </button>
          ))}
        </fetcher.Form>
      ) : null}
    </div>
  );
}
