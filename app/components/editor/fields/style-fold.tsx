import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { styleDiffers, type StyleKey } from "../card-summary";

interface StyleFoldProps {
  /** The values the fold holds (an element, an accordion header): compared with the defaults. */
  style: object;
  defaults?: Partial<Record<StyleKey, unknown>>;
  children: ReactNode;
}

/**
 * Size, colours, layout and alignment folded under "Style" (decision 065): closed while everything is as
 * it starts, open and marked "changed" when a value differs. Once the person opens or closes it, their
 * choice holds. A field inside marked invalid opens it, so a refused value is never hidden.
 */
export function StyleFold({ style, defaults, children }: StyleFoldProps) {
  const { t } = useTranslation();
  const changed = styleDiffers(style, defaults);
  const [open, setOpen] = useState(changed);
  const ref = useRef<HTMLDetailsElement>(null);
  // After every render: a field turns invalid from inside (its own check) or outside (a refused save).
  // eslint-disable-next-line react-hooks/exhaustive-deps -- reads the DOM; sets state only while closed, so it settles
  useEffect(() => {
    if (!open && ref.current?.querySelector("[aria-invalid='true']")) setOpen(true);
  });
  return (
    <details
      ref={ref}
      className="ef-style"
      open={open}
      onToggle={(event) => {
        const now = event.currentTarget.open;
        if (now !== open) setOpen(now);
      }}
    >
      <summary className="ef-style__summary">
        {t("editorCards.style")}
        {changed ? <span className="ef-style__changed"> · {t("editorCards.styleChanged")}</span> : null}
      </summary>
      <div className="ef-style__body">{children}</div>
    </details>
  );
}
