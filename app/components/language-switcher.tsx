import { useFetcher, useLocation } from "@remix-run/react";
import { useCallback, useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useOutsidePress } from "~/hooks/use-outside-press";
import { ensureLocale } from "~/i18n/client";
import { isLocale, SUPPORTED_LOCALES, type Locale } from "~/i18n/config";

export function LanguageSwitcher({ locale }: { locale: Locale }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const fetcher = useFetcher();
  const location = useLocation();
  const menuId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  // The chosen language's button disappears with the menu: focus goes back to the switcher, not <body>.
  // The page holds only its own language's strings (decision 077): the chosen language's are fetched first,
  // then the choice is sent, so the page never shows raw keys while it changes language. If they cannot be
  // fetched, the form is sent the plain way and the page reloads in the new language.
  const choose = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      setOpen(false);
      toggle.current?.focus();
      const form = event.currentTarget;
      const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
      const lng = submitter?.value;
      if (!isLocale(lng) || lng === locale) return;
      event.preventDefault();
      const data = new FormData(form);
      data.set("lng", lng);
      ensureLocale(i18n, lng)
        .then(() => fetcher.submit(data, { method: "post", action: "/resources/language" }))
        .catch(() => {
          const plain = document.createElement("form");
          plain.method = "post";
          plain.action = "/resources/language";
          for (const [name, value] of data) {
            const input = document.createElement("input");
            input.type = "hidden";
            input.name = name;
            input.value = String(value);
            plain.appendChild(input);
          }
          document.body.appendChild(plain);
          plain.submit();
        });
    },
    [fetcher, i18n, locale],
  );
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
