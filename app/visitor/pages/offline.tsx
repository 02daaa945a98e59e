import type { VisitorStrings } from "../strings.server";
import { withColon } from "../typography";
import { MuseumBar, Shell } from "./shell";

/**
 * The page a saved tour shows, with no connection, for an address that was not saved (issue 21 §3,
 * decision 087). Saved with the tour, in the tour's language; it links back to the saved tour page.
 */
export function OfflinePage({
  strings,
  lang,
  museumName,
  tour,
}: {
  strings: VisitorStrings;
  lang: string;
  museumName: string;
  tour: { link: string; name: string } | null;
}) {
  return (
    <Shell lang={lang} title={strings.offlineTitle} description={strings.offlineBody} bodyClass="v-page" robots="noindex">
      <MuseumBar name={museumName} />
      <main className="v-main">
        <h1>{strings.offlineTitle}</h1>
        <p>{strings.offlineBody}</p>
        {tour && (
          <p>
            <a className="v-button" href={`/t/${encodeURIComponent(tour.link)}`}>
              {withColon(strings.offlineBack, lang)} {tour.name}
            </a>
          </p>
        )}
      </main>
    </Shell>
  );
}
