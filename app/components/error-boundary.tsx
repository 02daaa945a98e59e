import { isRouteErrorResponse, useRouteError, type ErrorResponse } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";

/** What a route's boundary shows for one status: the thrown response's status and body. */
export type StatusHandler = (error: ErrorResponse) => ReactNode;

/**
 * A route's error boundary (decision 136): a thrown response goes to the handler of its status, or to
 * `defaultStatusHandler`; anything else (a bug) to `unexpectedErrorHandler`, and is logged in the browser.
 */
export function GeneralErrorBoundary({
  statusHandlers = {},
  defaultStatusHandler,
  unexpectedErrorHandler,
}: {
  statusHandlers?: Partial<Record<number, StatusHandler>>;
  defaultStatusHandler: StatusHandler;
  unexpectedErrorHandler: (error: unknown) => ReactNode;
}) {
  const error = useRouteError();
  const unexpected = !isRouteErrorResponse(error);
  useEffect(() => {
    if (unexpected) console.error(error);
  }, [error, unexpected]);
  if (unexpected) return <>{unexpectedErrorHandler(error)}</>;
  return <>{(statusHandlers[error.status] ?? defaultStatusHandler)(error)}</>;
}

/**
 * An error page: what happened as the heading, why and what to do below it, then the ways on. The heading
 * takes the focus, so a keyboard or screen-reader user starts at the news rather than at a link that is gone.
 */
export function ErrorPage({ title, children, actions }: { title: string; children: ReactNode; actions: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [title]);
  return (
    <section className="page page--narrow error-page">
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children}
      <p className="error-page__actions">{actions}</p>
    </section>
  );
}
