import { Link, NavLink, useLocation, useNavigate, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import toast from "react-hot-toast";
import { useOutsidePress } from "~/hooks/use-outside-press";
import type { Locale } from "~/i18n/config";
import { creditYear, siteConfig } from "~/site-config";
import { BookDemoButton } from "./book-demo";
import { LanguageSwitcher } from "./language-switcher";

interface LayoutProps {
  locale: Locale;
  loggedIn: boolean;
  children: ReactNode;
}

export function SiteLayout({ locale, loggedIn, children }: LayoutProps) {
  return (
    <div className="site">
      <NavBar locale={locale} loggedIn={loggedIn} />
      <main id="main" className="site__main">
        {children}
      </main>
      <Footer />
    </div>
  );
}

function useLogout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  return useCallback(async () => {
    try {
      const response = await fetch("/logout", { method: "POST", credentials: "same-origin" });
      if (!response.ok) throw new Error(`logout answered ${response.status}`);
      toast.success(t("logout.success"));
      navigate("/");
      revalidator.revalidate();
    } catch (error) {
      console.error(error);
      toast.error(t("logout.error"));
    }
  }, [t, navigate, revalidator]);
}

function NavBar({ locale, loggedIn }: { locale: Locale; loggedIn: boolean }) {
  const { t } = useTranslation();
  const logout = useLogout();
  const location = useLocation();
  const onContact = location.pathname === "/contact";

  return (
    <header className="navbar">
      <nav className="navbar__inner" aria-label={t("nav.mainNavigation")}>
        <Link to="/" className={`navbar__brand${onContact ? " navbar__brand--hide-mobile" : ""}`} aria-label={t("nav.home")}>
          {siteConfig.productName}
        </Link>
        <ul className="navbar__links">
          <li>
            <NavLink to="/blog">{t("nav.blog")}</NavLink>
          </li>
          <li>
            <NavLink to="/dashboard">{t("nav.dashboard")}</NavLink>
          </li>
          <li>
            <LanguageSwitcher locale={locale} />
          </li>
          <li>
            <NavLink to="/contact">{t("nav.contact")}</NavLink>
          </li>
        </ul>
        <div className="navbar__actions">
          {loggedIn ? (
            <button type="button" className="button button--ghost" onClick={logout}>
              {t("nav.logout")}
            </button>
          ) : (
            <BookDemoButton />
          )}
          <MobileMenu locale={locale} />
        </div>
      </nav>
    </header>
  );
}

function MobileMenu({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const location = useLocation();
  const close = useCallback(() => setOpen(false), []);
  useOutsidePress(ref, open, close);
  useEffect(close, [location.key, close]);

  return (
    <div className="mobile-menu" ref={ref}>
      <button
        type="button"
        className="mobile-menu__toggle"
        aria-expanded={open}
        aria-controls="mobile-menu-panel"
        aria-label={open ? t("nav.closeMenu") : t("nav.openMenu")}
        onClick={() => setOpen((v) => !v)}
      >
        <span aria-hidden="true">{open ? "✕" : "☰"}</span>
      </button>
      {open ? (
        <ul id="mobile-menu-panel" className="mobile-menu__panel">
          <li>
            <Link to="/dashboard">{t("nav.dashboard")}</Link>
          </li>
          <li>
            <Link to="/blog">{t("nav.blog")}</Link>
          </li>
          <li>
            <Link to="/contact">{t("nav.contact")}</Link>
          </li>
          <li>
            <LanguageSwitcher locale={locale} />
          </li>
        </ul>
      ) : null}
    </div>
  );
}

function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="footer">
      <a href={siteConfig.professionalNetworkUrl} target="_blank" rel="noreferrer" className="footer__network">
        {t("footer.professionalNetwork")}
      </a>
      <p className="footer__credit">
        {t("footer.credit", { product: siteConfig.productName, year: creditYear() })}{" "}
        <a href={siteConfig.author.url} target="_blank" rel="noreferrer">
          {siteConfig.author.name}
        </a>
      </p>
    </footer>
  );
}
