import { OFFLINE_BOOTSTRAP } from "~/offline/scripts";
import type { VisitorStrings } from "../strings.server";

/**
 * "Save this tour for offline", inside the tour page's `#v-offline` (issue 21 §3, decision 087). A real
 * button, rendered hidden: the inline bootstrap shows it only where a service worker can run, and the
 * control's script (`/offline.js`) loads only when it is pressed. Its words come in the visitor's language.
 */
export function OfflineControl({ strings, link, lang, nonce }: { strings: VisitorStrings; link: string; lang: string; nonce?: string }) {
  return (
    <>
      <button
        type="button"
        id="v-offline-save"
        className="v-button v-button--light"
        hidden
        data-link={link}
        data-lang={lang}
        data-label={strings.offlineSave}
        data-size={strings.offlineSize}
        data-confirm={strings.offlineConfirm}
        data-saving={strings.offlineSaving}
        data-ready-text={strings.offlineReady}
        data-remove={strings.offlineRemove}
        data-removed={strings.offlineRemoved}
        data-failed={strings.offlineFailed}
      >
        {strings.offlineSave}
      </button>
      <progress id="v-offline-progress" className="v-offline-progress" hidden max={1} value={0} aria-label={strings.offlineProgress} />
      <p id="v-offline-status" className="v-offline-status" role="status" />
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: OFFLINE_BOOTSTRAP }} />
    </>
  );
}
