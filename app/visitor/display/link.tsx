import type { VisitorStrings } from "../strings.server";

/** The footer's link to the display choices page, which comes back to `back` (this page). */
export function DisplayLink({ strings, back }: { strings: VisitorStrings; back: string }) {
  return (
    <a className="v-button v-button--light" href={`/display?${new URLSearchParams({ back })}`}>
      <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
        <path d="M4 20l6-16l6 16M6.5 14h7M17 20l2.5-7l2.5 7" />
      </svg>
      <span>{strings.display}</span>
    </a>
  );
}
