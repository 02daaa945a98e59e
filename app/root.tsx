import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import toast, { Toaster } from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { SiteLayout } from "./components/site-layout";
import { LOCALE_URLS } from "./i18n/client";
import { DEFAULT_LOCALE, fixedT } from "./i18n/config";
import { useLocaleStrings } from "./i18n/use-locale-strings";
import { getLocale } from "./i18n/i18n.server";
import stylesheet from "./styles/app.css?url";
import { localeFromMatches } from "./utils/meta";
import { getUser } from "./utils/session.server";
import { readFlashToast } from "./utils/toast.server";
import { NotFound } from "./components/not-found";
import { useNonce } from "./utils/nonce";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [locale, user, flash] = await Promise.all([getLocale(request), getUser(request, context), readFlashToast(request)]);
  return data(
    {
      locale,
      user: user ? { email: user.email, museumName: user.museumName, role: user.role, languages: user.languages } : null,
      toast: flash.toast,
    },
    { headers: flash.setCookie ? { "Set-Cookie": flash.setCookie } : {} },
  );
}

export const meta: MetaFunction = ({ matches }) => {
  const locale = localeFromMatches(matches);
  return [{ title: fixedT(locale)("error.metaTitle") }];
};

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  const locale = data?.locale ?? DEFAULT_LOCALE;
  // The document's first language: after a switch the new strings are fetched by script, and a changed href
  // would only make the browser preload them a second time.
  const [stringsLocale] = useState(locale);
  return (
    <html lang={locale} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {/* The page language's strings (decision 077), fetched with the scripts: hydration waits for them. */}
        <link rel="preload" as="fetch" crossOrigin="anonymous" href={LOCALE_URLS[stringsLocale]} />
      </head>
      <body>
        <SiteLayout locale={locale} loggedIn={Boolean(data?.user)}>
          {children}
        </SiteLayout>
        {/* Below the sticky site header (44 px controls + padding), so a toast never covers the navigation. */}
        <Toaster position="top-right" containerStyle={{ top: 76 }} toastOptions={{ duration: 5000 }} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * After a client-side navigation the link that was clicked is gone and focus falls to <body>: move it
 * to the new page's heading, so keyboard and screen-reader users start where the new content starts.
 * A page that put focus somewhere itself (an autofocused field) keeps it.
 */
function useFocusHeadingOnNavigation() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const heading = document.querySelector<HTMLElement>("#main h1");
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus();
  }, [pathname]);
}

export default function App() {
  const { locale, toast: flash } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  useLocaleStrings(locale);
  useFocusHeadingOnNavigation();

  useEffect(() => {
    if (!flash) return;
    if (flash.type === "success") toast.success(t(flash.key), { id: flash.id });
    else toast.error(t(flash.key), { id: flash.id });
  }, [flash, t]);

  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <section className="page page--centered">
      <h1>{t("error.title")}</h1>
      <p>{t("error.body")}</p>
      <p className="muted">{t("error.status", { status })}</p>
      <Link to="/" className="button">
        {t("error.backHome")}
      </Link>
    </section>
  );
}
