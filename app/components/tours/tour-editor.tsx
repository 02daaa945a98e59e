import { useRevalidator } from "@remix-run/react";
import { useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { TourFields, TourStopView } from "~/tours/tour-model";
import { apiErrorMessage, callApi } from "~/utils/api-client";
import { CoverPicker } from "./cover-picker";
import { StopPicker } from "./stop-picker";
import type { TreeArticle } from "./tour-helpers";
import { QrPanel } from "~/components/qrcodes/qr-panel";
import { TourStops, type EditableStop } from "./tour-stops";

/** The tour as the editor receives it (the loader's TourView, dates left out). */
export interface EditorTour extends Omit<TourFields, "updatedAt"> {
  stops: Omit<TourStopView, "slug">[];
}

let keys = 0;
const keyed = (stops: EditorTour["stops"]): EditableStop[] => stops.map((s) => ({ ...s, key: `s${++keys}` }));

type Status = { kind: "idle" | "saving" | "saved" | "error" | "stale"; text: string };

/** The tour page's form: fields, cover, ordered stops (saved together, with the version), and the QR code. */
export function TourEditor({ tour, articles, images, address }: { tour: EditorTour; articles: TreeArticle[]; images: string[]; address: string }) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [version, setVersion] = useState(tour.version);
  const [name, setName] = useState(tour.name);
  const [description, setDescription] = useState(tour.description);
  const [minutes, setMinutes] = useState(tour.minutes === null ? "" : String(tour.minutes));
  const [cover, setCover] = useState<string | null>(tour.cover);
  const [stops, setStops] = useState<EditableStop[]>(() => keyed(tour.stops));
  const [status, setStatus] = useState<Status>({ kind: "idle", text: "" });
  const [errors, setErrors] = useState<{ name?: string; description?: string; minutes?: string }>({});
  const statusRef = useRef<HTMLParagraphElement>(null);

  function add(article: TreeArticle) {
    setStops((list) => [...list, { key: `s${++keys}`, articleId: article.id, name: article.name, published: true, trashed: false, stopNumber: null }]);
    setStatus({ kind: "idle", text: t("tours.picker.added", { name: article.name, position: stops.length + 1 }) });
  }

  function onNumber(articleId: number, value: number | null) {
    setStops((list) => list.map((s) => (s.articleId === articleId ? { ...s, stopNumber: value } : s)));
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (status.kind === "saving") return;
    const minutesText = minutes.trim();
    const minutesValue = minutesText === "" ? null : Number(minutesText);
    if (minutesValue !== null && (!/^\d{1,3}$/.test(minutesText) || minutesValue < 1 || minutesValue > 600)) {
      setErrors({ minutes: t("tours.edit.minutesInvalid") });
      document.getElementById("tour-minutes")?.focus();
      return;
    }
    if (name.trim() === "") {
      setErrors({ name: t("errors.reasons.empty") });
      document.getElementById("tour-name")?.focus();
      return;
    }
    setErrors({});
    setStatus({ kind: "saving", text: t("tours.edit.saving") });
    const result = await callApi<EditorTour>("/api/manage/update_tour", {
      id: tour.id,
      version,
      name,
      description,
      minutes: minutesValue,
      cover,
      articleIds: stops.map((s) => s.articleId),
    });
    if (result.ok) {
      setVersion(result.data.version);
      setName(result.data.name);
      setDescription(result.data.description);
      setStops(keyed(result.data.stops));
      setStatus({ kind: "saved", text: t("tours.edit.saved") });
      revalidator.revalidate();
    } else if (result.status === 409) {
      setStatus({ kind: "stale", text: t("tours.edit.stale") });
    } else {
      const field = result.error.field ?? "";
      const text = apiErrorMessage(t, result);
      if (field === "name" || field === "description" || field === "minutes") setErrors({ [field]: text });
      setStatus({ kind: "error", text: field.startsWith("articleIds") ? t("tours.edit.stopGone") : text });
    }
    statusRef.current?.focus();
  }

  function reload() {
    window.location.reload();
  }

  return (
    <div className="tour-layout">
      <div className="tour-main">
        <form id="tour-form" className="tour-fields" onSubmit={(e) => void save(e)} noValidate aria-labelledby="tour-fields-heading">
          <h2 id="tour-fields-heading">{t("tours.edit.fieldsHeading")}</h2>
          <div className="field">
            <label htmlFor="tour-name">{t("tours.edit.name")}</label>
            <input
              id="tour-name"
              value={name}
              maxLength={120}
              required
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? "tour-name-error" : undefined}
              onChange={(e) => setName(e.target.value)}
            />
            {errors.name ? (
              <p className="field__error" id="tour-name-error">
                {errors.name}
              </p>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor="tour-description">{t("tours.edit.description")}</label>
            <textarea
              id="tour-description"
              rows={4}
              value={description}
              maxLength={1000}
              aria-invalid={errors.description ? true : undefined}
              aria-describedby={errors.description ? "tour-description-help tour-description-error" : "tour-description-help"}
              onChange={(e) => setDescription(e.target.value)}
            />
            <small id="tour-description-help">{t("tours.edit.descriptionHelp", { count: [...description].length })}</small>
            {errors.description ? (
              <p className="field__error" id="tour-description-error">
                {errors.description}
              </p>
            ) : null}
          </div>
          <div className="field tour-fields__minutes">
            <label htmlFor="tour-minutes">{t("tours.edit.minutes")}</label>
            <input
              id="tour-minutes"
              inputMode="numeric"
              maxLength={3}
              value={minutes}
              aria-invalid={errors.minutes ? true : undefined}
              aria-describedby={errors.minutes ? "tour-minutes-help tour-minutes-error" : "tour-minutes-help"}
              onChange={(e) => setMinutes(e.target.value)}
            />
            <small id="tour-minutes-help">{t("tours.edit.minutesHelp")}</small>
            {errors.minutes ? (
              <p className="field__error" id="tour-minutes-error">
                {errors.minutes}
              </p>
            ) : null}
          </div>
          <CoverPicker images={images} value={cover} onChange={setCover} />
        </form>

        <section className="tour-stops-section" aria-labelledby="tour-stops-heading">
          <h2 id="tour-stops-heading">{t("tours.stops.heading", { count: stops.length })}</h2>
          <p className="muted">{t("tours.stops.help")}</p>
          <TourStops stops={stops} onChange={setStops} onNumber={onNumber} />
          <details className="tour-add">
            <summary>{t("tours.picker.heading")}</summary>
            <StopPicker articles={articles} onAdd={add} />
          </details>
        </section>

        <div className="tour-savebar">
          <button type="submit" form="tour-form" className="button" aria-disabled={status.kind === "saving"}>
            {t("tours.edit.save")}
          </button>
          {status.kind === "stale" ? (
            <button type="button" className="button button--ghost" onClick={reload}>
              {t("tours.edit.reload")}
            </button>
          ) : null}
          <p
            ref={statusRef}
            tabIndex={-1}
            role="status"
            className={status.kind === "error" || status.kind === "stale" ? "field__error tour-savebar__status" : "tour-savebar__status"}
          >
            {status.text}
          </p>
        </div>
      </div>
      <aside className="tour-aside" aria-label={t("tours.qr.heading")}>
        <h2>{t("tours.qr.heading")}</h2>
        <QrPanel kind="tour" id={tour.id} link={tour.link} address={address} />
      </aside>
    </div>
  );
}
