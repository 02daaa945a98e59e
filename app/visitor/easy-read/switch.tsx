import type { VisitorStrings } from "../strings.server";

/**
 * The clear switch between the full text and the easy-to-read version (a link, no script), shown only on
 * articles with an approved version. `href` leads to the other version; the label says where it leads.
 */
export function EasyReadSwitch({ on, href, strings, ui }: { on: boolean; href: string; strings: VisitorStrings; ui: { lang?: string; dir?: "ltr" | "rtl" } }) {
  return (
    <p className="v-easy" {...ui}>
      {on ? <span className="v-label">{strings.easyReadShown}</span> : null}
      <a className="v-button v-button--light v-easy__switch" href={href}>
        <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M4 6h16M4 12h10M4 18h7" />
        </svg>
        <span>{on ? strings.fullText : strings.easyRead}</span>
      </a>
    </p>
  );
}
