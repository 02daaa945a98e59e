// The demo museum's content, seeded by `npm start` on an empty database (scripts/lib.mjs): three rooms
// as folders, nine articles using every element type, original illustrations as images
// (committed WebP files in scripts/demo-assets, drawn by scripts/illustrations.mjs), the landing's demo
// recording of the visitor page as a video with French subtitles (scripts/demo-video.mjs), QR codes (one
// inactive) and 60 days of synthetic statistics (docs/decisions/024-demo-museum.md). One SQL batch plus
// the images written straight into the local R2 store: about a second on top of the start-up.
import { randomUUID } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT, sqlString } from "./lib.mjs";

/** The landing's "Test it!" code (app/site-config.ts, demoVisitorLink) opens this article. */
export const DEMO_TEST_LINK = "essayez2";
/** Every demo picture is drawn at this size (scripts/illustrations.mjs, demoPicture). */
const DEMO_IMAGE_SIZE = { width: 800, height: 560 };
const LINK_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

const IMAGES = {
  amphora: "Illustration d'une amphore en terre cuite à deux anses",
  harbour: "Illustration de deux voiliers antiques dans un port, au soleil couchant",
  coin: "Illustration d'une pièce de monnaie en bronze portant un profil",
  mosaic: "Illustration d'une mosaïque de tesselles beiges avec un médaillon bleu",
  map: "Illustration d'une carte côtière avec un itinéraire en pointillés",
};

const ROOMS = ["Salle 1 · Le port antique", "Salle 2 · La ville romaine", "Salle 3 · Voyages et échanges"];

const text = (content, extra = {}) => ({
  type: "text",
  content,
  fontSize: 16,
  bold: false,
  italic: false,
  color: "#ffffff",
  size: 100,
  justify: "flex-start",
  align: "left",
  ...extra,
});
const title = (content) => text(content, { fontSize: 26, bold: true });
const image = (src, alt, size = 100) => ({ type: "image", src, alt, size, justify: "center" });
const space = (size = 40) => ({ type: "space", size });
const link = (href, content) => ({
  type: "link",
  link: href,
  src: "",
  content,
  fontSize: 16,
  bold: true,
  italic: false,
  color: "#ffffff",
  size: 100,
  justify: "flex-start",
});
const legend = (src, alt, content) => ({
  type: "legendItem",
  src,
  alt,
  width: 30,
  content,
  fontSize: 16,
  bold: false,
  italic: false,
  color: "#ffffff",
  size: 100,
  justify: "flex-start",
});
const video = (src, subtitles, videoId) => ({ type: "video", src, subtitles, videoId, size: 100, justify: "center" });
const accordion = (header, details) => ({ type: "accordion", header: { content: header, fontSize: 18, bold: true, italic: false, color: "#ffffff" }, details });

/**
 * Eight articles; `media` maps each picture name to its /media/ address. Exported for the visitor questions' set
 * (tests/unit/questions-set.test.ts), which asks about exactly this text.
 */
export function articles(media) {
  const m = (name) => media[name];
  return [
    {
      room: 0,
      slug: "amphore",
      name: "L'amphore",
      test: true,
      content: [
        title("L'amphore"),
        image(m("amphora"), IMAGES.amphora),
        text(
          "Dans l'Antiquité, l'amphore est le conteneur de tous les échanges en Méditerranée : vin, huile d'olive, sauces de poisson voyagent dans ces vases de terre cuite. Sa pointe se cale dans le sable ou dans la cale d'un navire, ses deux anses permettent de la porter à deux.",
        ),
        space(24),
        accordion("Pour aller plus loin", [
          text(
            "Les archéologues lisent beaucoup sur une amphore : la forme de la lèvre et des anses date le vase, l'argile trahit l'atelier, et un timbre imprimé nomme parfois le producteur.",
          ),
          legend(
            m("coin"),
            IMAGES.coin,
            "Les timbres d'amphores jouent un rôle comparable aux légendes des monnaies : ils disent qui a produit, et parfois quand.",
          ),
        ]),
        link("https://fr.wikipedia.org/wiki/Amphore", "L'amphore sur Wikipédia"),
        text("Musée de démonstration : les images sont des illustrations et les statistiques sont fictives.", { fontSize: 13, italic: true }),
      ],
    },
    {
      room: 0,
      slug: "le-port",
      name: "Le port",
      content: [
        title("Le port"),
        image(m("harbour"), IMAGES.harbour),
        text(
          "Un port antique est d'abord un abri : une anse protégée des vents, des quais de pierre, des entrepôts. Les navires de commerce y déchargent leurs amphores avant de repartir avec d'autres marchandises.",
        ),
        legend(m("map"), IMAGES.map, "Les itinéraires suivent les côtes : on navigue de jour, d'un mouillage à l'autre."),
      ],
    },
    {
      room: 0,
      slug: "la-monnaie",
      name: "La monnaie",
      content: [
        title("La monnaie"),
        image(m("coin"), IMAGES.coin, 60),
        text(
          "Les pièces de bronze servent aux petites dépenses du quotidien. Leur face porte souvent un profil, leur revers un symbole de la cité qui les frappe.",
        ),
        space(),
        accordion("Comment lire une pièce ?", [
          text("Commencez par la légende, le texte qui court le long du bord : elle nomme souvent l'autorité qui a émis la pièce."),
          text("Regardez ensuite le revers : un animal, un objet ou une divinité évoquent la cité."),
        ]),
      ],
    },
    {
      room: 1,
      slug: "la-mosaique",
      name: "La mosaïque",
      content: [
        title("La mosaïque"),
        image(m("mosaic"), IMAGES.mosaic),
        text(
          "Une mosaïque est faite de milliers de petits cubes, les tesselles, posés un à un dans un mortier frais. Les riches maisons en couvrent leurs sols ; les motifs géométriques encadrent souvent un médaillon central.",
        ),
        link("https://fr.wikipedia.org/wiki/Mosa%C3%AFque", "La mosaïque sur Wikipédia"),
      ],
    },
    {
      room: 1,
      slug: "la-maison",
      name: "La maison romaine",
      content: [
        title("La maison romaine"),
        text(
          "La maison s'organise autour d'une cour ouverte sur le ciel. Les pièces de réception, décorées de mosaïques et de peintures, donnent sur cette cour ; les pièces de service restent à l'écart.",
        ),
        legend(m("mosaic"), IMAGES.mosaic, "Les sols des pièces de réception portaient les plus belles mosaïques."),
      ],
    },
    {
      room: 1,
      slug: "les-thermes",
      name: "Les thermes",
      content: [
        title("Les thermes"),
        text("Les bains publics sont un lieu de rencontre autant que d'hygiène. On y passe d'une salle tiède à une salle chaude, puis à un bassin froid."),
        accordion("Le chauffage par le sol", [
          text("Le sol des salles chaudes repose sur de petits piliers de briques ; l'air chauffé par un foyer circule dessous."),
        ]),
      ],
    },
    {
      room: 2,
      slug: "la-carte",
      name: "La carte des routes maritimes",
      content: [
        title("La carte des routes maritimes"),
        image(m("map"), IMAGES.map),
        text(
          "Cette carte illustrée suit un itinéraire côtier : escales, caps à contourner, mouillages abrités. Les marins antiques naviguaient à vue, en longeant les côtes.",
        ),
      ],
    },
    {
      room: 2,
      slug: "les-echanges",
      name: "Les échanges",
      content: [
        title("Les échanges"),
        text(
          "Ce qui arrive au port repart vers l'intérieur des terres, par la route ou le fleuve. Les objets exposés dans cette salle racontent ces circulations.",
        ),
        legend(m("amphora"), IMAGES.amphora, "Une même forme d'amphore retrouvée loin de son atelier révèle une route commerciale."),
        link("https://fr.wikipedia.org/wiki/Commerce_dans_la_Rome_antique", "Le commerce dans la Rome antique"),
      ],
    },
    {
      room: 2,
      slug: "visiter-avec-muselingo",
      name: "Visiter avec Muselingo",
      content: [
        title("Visiter avec Muselingo"),
        text(
          "Cette courte vidéo, sous-titrée, montre un visiteur qui lit l'article « L'amphore » en français puis en arabe. Elle a été enregistrée sur ce musée de démonstration, où les traductions viennent du moteur de test hors ligne.",
        ),
        video(m("tour"), m("tourSubtitles"), "visite"),
      ],
    },
  ];
}

function randomLink() {
  let link = "";
  while (link.length < 8) link += LINK_ALPHABET[Math.floor(Math.random() * LINK_ALPHABET.length)];
  return link;
}

const MUSEUM = (slug) => `(SELECT id FROM museums WHERE slug = ${sqlString(slug)})`;

/** The SQL of the whole demo content, and the files to write to R2 (key, path, type, bytes). */
export function demoContent(museumSlug) {
  const file = (name, kind, path, ext, contentType) => ({
    name,
    kind,
    key: `m/demo/${kind}/${randomUUID()}.${ext}`,
    path,
    contentType,
    bytes: statSync(path).size,
  });
  const files = [
    ...Object.keys(IMAGES).map((name) => file(name, "image", join(ROOT, "scripts", "demo-assets", `${name}.webp`), "webp", "image/webp")),
    // The landing's recording of the visitor page (scripts/demo-video.mjs), with French subtitles.
    file("tour", "video", join(ROOT, "public", "site", "demo-fr.webm"), "webm", "video/webm"),
    file("tourSubtitles", "subtitles", join(ROOT, "scripts", "demo-assets", "visite.vtt"), "vtt", "text/vtt"),
  ];
  const media = Object.fromEntries(files.map((f) => [f.name, `/media/${f.key}`]));
  const museum = MUSEUM(museumSlug);
  const now = Date.now();
  const sql = [];
  const links = [];
  ROOMS.forEach((room) => sql.push(`INSERT INTO folders (museum_id, parent_id, name) VALUES (${museum}, NULL, ${sqlString(room)});`));
  const list = articles(media);
  for (const a of list) {
    const content = [{ type: "metadatas", url: a.slug, backgroundColor: "#341539" }, ...a.content];
    const folder = `(SELECT id FROM folders WHERE museum_id = ${museum} AND parent_id IS NULL AND name = ${sqlString(ROOMS[a.room])})`;
    // Published as written (decision 041: visitors see only published content), version 1 of its history.
    sql.push(
      `INSERT INTO articles (museum_id, folder_id, slug, unformatted_name, content, version, updated_at, published_content, published_version, published_at) VALUES (${museum}, ${folder}, ${sqlString(a.slug)}, ${sqlString(a.name)}, ${sqlString(JSON.stringify(content))}, 1, ${now}, ${sqlString(JSON.stringify(content))}, 1, ${now});`,
    );
    const article = `(SELECT id FROM articles WHERE museum_id = ${museum} AND slug = ${sqlString(a.slug)})`;
    sql.push(
      `INSERT INTO article_versions (article_id, museum_id, number, content, name, published_at) SELECT id, museum_id, 1, content, unformatted_name, ${now} FROM articles WHERE id = ${article};`,
    );
    const link = a.test ? DEMO_TEST_LINK : randomLink();
    links.push(link);
    sql.push(`INSERT INTO qrcodes (museum_id, link, article_id) VALUES (${museum}, ${sqlString(link)}, ${article});`);
  }
  // One code printed but not linked yet: the list shows it as inactive.
  const unlinked = randomLink();
  links.push(unlinked);
  sql.push(`INSERT INTO qrcodes (museum_id, link, article_id) VALUES (${museum}, ${sqlString(unlinked)}, NULL);`);
  for (const f of files) {
    const user = list.find((a) => JSON.stringify(a.content).includes(media[f.name]));
    const article = user ? `(SELECT id FROM articles WHERE museum_id = ${museum} AND slug = ${sqlString(user.slug)})` : "NULL";
    const size = f.kind === "image" ? `${DEMO_IMAGE_SIZE.width}, ${DEMO_IMAGE_SIZE.height}` : "NULL, NULL";
    sql.push(
      `INSERT INTO media (museum_id, r2_key, kind, content_type, bytes, article_id, width, height) VALUES (${museum}, ${sqlString(f.key)}, '${f.kind}', ${sqlString(f.contentType)}, ${f.bytes}, ${article}, ${size});`,
    );
  }
  sql.push(statisticsSql(museum));
  // The printed links, for the directory (decision 142).
  return { sql: sql.join("\n"), files, links };
}

/**
 * 60 days of synthetic, deterministic statistics (no randomness: the same shape on every machine): more
 * readers at weekends, French and English first, a few visitors in six other languages, more views than
 * scans. Days in UTC (stored as day numbers, 0014), close enough to the museum's Paris time for a demonstration.
 */
function statisticsSql(museum) {
  const day = "date('now', '-' || d.i || ' days')";
  const weekend = `(CASE WHEN strftime('%w', ${day}) IN ('0', '6') THEN 3 ELSE 2 END)`;
  const scans = `(langs.weight * (2 + ((d.i * 7 + a.id * 13 + unicode(langs.code) * 5) % 6)) * ${weekend} / 4)`;
  return `WITH RECURSIVE d(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM d WHERE i < 59),
langs(code, weight) AS (VALUES ('fr', 9), ('en', 6), ('es', 3), ('de', 3), ('it', 2), ('zh', 2), ('ja', 1), ('ar', 1))
INSERT INTO daily_stats (museum_id, day, article_id, lang, scans, views)
SELECT ${museum}, CAST(julianday(${day}) - 2440587.5 AS INTEGER), a.id, langs.code, ${scans}, ${scans} + (${scans} * 3 + a.id) / 5
FROM d CROSS JOIN langs JOIN articles a ON a.museum_id = ${museum} AND a.deleted_at IS NULL;`;
}

/** Writes the pictures into the local R2 store wrangler dev reads (`<persist>/v3/r2`). */
export async function putDemoFiles(files, persistTo) {
  const { Miniflare, convertV4MiniflareOptions } = await import("miniflare");
  // Miniflare 5 takes its options as a config of workers; the single-worker shape of Miniflare 4 converts to it.
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: "export default { fetch() { return new Response(null, { status: 204 }) } }",
      // wrangler.toml's bucket_name: wrangler dev keys its local store by it.
      r2Buckets: { MEDIA: "muselingo-media" },
      r2Persist: join(persistTo ?? join(ROOT, ".wrangler", "state"), "v3", "r2"),
    }),
  );
  try {
    const bucket = await mf.getR2Bucket("MEDIA");
    for (const f of files) await bucket.put(f.key, new Uint8Array(readFileSync(f.path)), { httpMetadata: { contentType: f.contentType } });
  } finally {
    await mf.dispose();
  }
}
