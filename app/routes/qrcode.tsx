import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { ArticlePicker } from "~/components/qrcodes/article-picker";
import { QrPanel } from "~/components/qrcodes/qr-panel";
import { notFound } from "~/errors";
import { qrcodeQuerySchema } from "~/models/qrcode-input";
import { getQrCode, publicAddress, type QrCodeView } from "~/models/qrcodes.server";
import { listLiveArticles } from "~/models/tree.server";
import { callApi } from "~/utils/api-client";
import { pageMeta } from "~/utils/meta";
import { orPageError, refusePage } from "~/utils/page.server";
import { requireUser } from "~/utils/session.server";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "qrcodes.detail", { noindex: true });

/** `/qrcode?id=`: a missing, malformed or another museum's id is the not-found page, never a 500. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.edit");
  const parsed = qrcodeQuerySchema.safeParse({ qrcodeId: new URL(request.url).searchParams.get("id") ?? undefined });
  if (!parsed.success) refusePage(notFound("QR code", "id"));
  const [code, articles] = await Promise.all([
    orPageError(getQrCode(context.db, user.museumId, parsed.data.qrcodeId)),
    listLiveArticles(context.db, user.museumId),
  ]);
  return {
    code,
    address: publicAddress(context.config.PUBLIC_BASE_URL, request, code.link),
    articles: articles.map((a) => ({ id: a.id, unformatted_name: a.unformatted_name })),
  };
}

// One toast per save: loading, then replaced by its result.
const SAVE_TOAST = "qrcode-save";

export default function QrCodeDetail() {
  const { code, address, articles } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [selected, setSelected] = useState<number | null>(code.id_article);
  const [busy, setBusy] = useState(false);
  const chosen = articles.find((a) => a.id === selected);

  async function save(articleId: number | null) {
    if (busy) return;
    setBusy(true);
    toast.loading(t("qrcodes.detail.saving"), { id: SAVE_TOAST });
    const result = await callApi<QrCodeView>("/api/manage/update_qrcode", { qrcodeId: code.id, articleId });
    setBusy(false);
    if (result.ok) {
      setSelected(result.data.id_article);
      toast.success(t("qrcodes.detail.saved"), { id: SAVE_TOAST, duration: 5000 });
    } else {
      toast.error(t("qrcodes.detail.saveError"), { id: SAVE_TOAST, duration: 5000 });
    }
    revalidator.revalidate();
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (selected !== null) void save(selected);
  }

  return (
    <section className="page qrcode">
      <Link to="/qrcodes" className="button button--ghost qrcode__back">
        <span aria-hidden="true">←</span> {t("qrcodes.detail.back")}
      </Link>
      <h1>{t("qrcodes.detail.title", { link: code.link })}</h1>
      <div className="qrcode__layout">
        <div className="qrcode__main">
          <p className={`qrcode__state${code.id_article === null ? " qrcode__state--inactive" : ""}`} data-testid="qrcode-state">
            {code.id_article === null ? t("qrcodes.detail.inactive") : t("qrcodes.detail.active", { name: code.name })}
          </p>
          <form className="qrcode__form" onSubmit={onSubmit} aria-labelledby="qrcode-link-heading">
            <h2 id="qrcode-link-heading">{t("qrcodes.detail.linkHeading")}</h2>
            <ArticlePicker articles={articles} selected={selected} onSelect={setSelected} />
            <p className="qrcode__chosen">{chosen ? t("qrcodes.detail.chosen", { name: chosen.unformatted_name }) : t("qrcodes.detail.noneChosen")}</p>
            <div className="qrcode__actions">
              <button type="submit" className="button" aria-disabled={busy || selected === null}>
                {t("qrcodes.detail.save")}
              </button>
              {code.id_article !== null ? (
                <button type="button" className="button button--ghost" aria-disabled={busy} onClick={() => void save(null)}>
                  {t("qrcodes.detail.unlink")}
                </button>
              ) : null}
            </div>
          </form>
        </div>
        <QrPanel kind="qrcode" id={code.id} link={code.link} address={address} />
      </div>
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary subject="qrcode" />;
}
