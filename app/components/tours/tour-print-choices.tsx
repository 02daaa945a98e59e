import { useTranslation } from "react-i18next";

/**
 * The museum's tours on the QR codes page, ticked like the codes to go on the print sheet (`tours=1&tours=2`
 * without JavaScript, `tours=1,2` with it).
 */
export function TourPrintChoices({
  tours,
  picked,
  onToggle,
}: {
  tours: { id: number; name: string; link: string }[];
  picked: ReadonlySet<number>;
  onToggle: (id: number, on: boolean) => void;
}) {
  const { t } = useTranslation();
  if (tours.length === 0) return null;
  return (
    <fieldset className="tour-print-choices">
      <legend>{t("tours.print.toursLegend")}</legend>
      <ul className="tree qrcodes__list">
        {tours.map((tour) => (
          <li key={tour.id} className="tree-row qrcode-row">
            <input
              type="checkbox"
              name="tours"
              value={tour.id}
              className="qrcode-row__check"
              id={`pick-tour-${tour.id}`}
              checked={picked.has(tour.id)}
              onChange={(e) => onToggle(tour.id, e.target.checked)}
            />
            <label htmlFor={`pick-tour-${tour.id}`} className="visually-hidden">
              {t("tours.print.pickTour", { name: tour.name })}
            </label>
            <a href={`/tours/${tour.id}`} className="tree-row__link qrcode-row__link">
              {tour.name}
            </a>
            <span className="qrcode-row__article">/t/{tour.link}</span>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
