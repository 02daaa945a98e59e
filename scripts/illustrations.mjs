// Draws the public site's original illustrations (blog covers, the 17 carousel pictures, how-it-works,
// the schema, the founder's portrait) and the demo museum's images, deterministically: run it again
// and the same files come out. `node scripts/illustrations.mjs` writes them; they are committed, so
// neither the build nor `npm start` needs it. Illustrations, never pictures pretending to be photographs.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { ROOT } from "./lib.mjs";

const BRAND = "#341539";
const ACCENT = "#7b2cbf";
const SOFT = "#f1e8f8";
const SAND = ["#e9d8b4", "#dcc392", "#cfb07a", "#e3cfa5"];
const STONE = ["#b9a88c", "#a8977b", "#c6b597", "#9d8c70"];

function rng(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
const esc = (t) => t.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]);
const svg = (w, h, body) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}">${body}</svg>\n`;

/** A small QR-looking square: decorative, not a code anyone could scan. */
function fakeQr(x, y, size, rand) {
  const n = 9;
  const m = size / n;
  let cells = "";
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const finder = (i < 3 && j < 3) || (i < 3 && j > 5) || (i > 5 && j < 3);
      if (finder ? !(i % 6 === 1 && j % 6 === 1) || (i % 6 === 1 && j % 6 === 1) : rand() > 0.5)
        cells += `<rect x="${(x + j * m).toFixed(1)}" y="${(y + i * m).toFixed(1)}" width="${m.toFixed(1)}" height="${m.toFixed(1)}"/>`;
    }
  return `<rect x="${x - m / 2}" y="${y - m / 2}" width="${size + m}" height="${size + m}" fill="#fff"/><g fill="${BRAND}">${cells}</g>`;
}

/** An archaeological site at a given hour: sky, ground, wall remains, column stumps, one panel. */
function siteScene(index, w = 800, h = 600) {
  const rand = rng(1000 + index * 7919);
  const hour = index / 17;
  const skyTop = ["#8ec5e8", "#a7d3ee", "#f3c9a0", "#9fc7e0", "#c4b5e8"][index % 5];
  let body = `<defs><linearGradient id="sky${index}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${skyTop}"/><stop offset="1" stop-color="#f7f1e6"/></linearGradient></defs>`;
  body += `<rect width="${w}" height="${h}" fill="url(#sky${index})"/>`;
  body += `<circle cx="${100 + hour * 600}" cy="${90 + rand() * 60}" r="38" fill="#fff3c4" opacity="0.9"/>`;
  // Far city and sea line.
  body += `<rect y="${h * 0.48}" width="${w}" height="${h * 0.06}" fill="#7fb0c9" opacity="0.7"/>`;
  for (let x = 0; x < w; x += 30 + rand() * 40)
    body += `<rect x="${x.toFixed(0)}" y="${(h * 0.4 + rand() * 30).toFixed(0)}" width="${(18 + rand() * 30).toFixed(0)}" height="${h * 0.1}" fill="#c9c2b8" opacity="0.8"/>`;
  body += `<rect y="${h * 0.52}" width="${w}" height="${h * 0.48}" fill="${SAND[index % 4]}"/>`;
  // Wall remains in rows of blocks.
  for (let r = 0; r < 4; r++) {
    const y = h * 0.58 + r * 55 + rand() * 10;
    let x = -20 + rand() * 60;
    while (x < w) {
      const len = 60 + rand() * 140;
      const rows = 1 + Math.floor(rand() * 3);
      for (let k = 0; k < rows; k++)
        body += `<rect x="${x.toFixed(0)}" y="${(y - k * 14).toFixed(0)}" width="${(len - k * 12).toFixed(0)}" height="13" rx="2" fill="${STONE[(r + k) % 4]}" stroke="#8a7a60" stroke-width="1"/>`;
      x += len + 40 + rand() * 120;
    }
  }
  // Column stumps.
  for (let c = 0; c < 2 + (index % 3); c++) {
    const x = 60 + rand() * (w - 120);
    const ch = 40 + rand() * 90;
    body += `<rect x="${x.toFixed(0)}" y="${(h * 0.6 - ch).toFixed(0)}" width="26" height="${ch.toFixed(0)}" fill="#d8ccb6" stroke="#9d8c70"/><rect x="${(x - 5).toFixed(0)}" y="${(h * 0.6 - ch - 8).toFixed(0)}" width="36" height="9" fill="#cbbd9f"/>`;
  }
  // The explanatory panel with its QR code.
  const px = 140 + rand() * (w - 400);
  const py = h * 0.34 + rand() * 40;
  body += `<rect x="${(px + 95).toFixed(0)}" y="${(py + 150).toFixed(0)}" width="14" height="${(h - py - 170).toFixed(0)}" fill="#5a4a3a"/>`;
  body += `<g transform="rotate(${(rand() * 6 - 3).toFixed(1)} ${px + 100} ${py + 80})"><rect x="${px.toFixed(0)}" y="${py.toFixed(0)}" width="210" height="160" rx="6" fill="${BRAND}"/>`;
  body += `<rect x="${(px + 12).toFixed(0)}" y="${(py + 14).toFixed(0)}" width="110" height="10" rx="3" fill="#fff" opacity="0.9"/>`;
  for (let l = 0; l < 5; l++)
    body += `<rect x="${(px + 12).toFixed(0)}" y="${(py + 36 + l * 16).toFixed(0)}" width="${(80 + rand() * 30).toFixed(0)}" height="6" rx="3" fill="#fff" opacity="0.6"/>`;
  body += fakeQr(px + 140, py + 60, 54, rand);
  body += `<text x="${(px + 12).toFixed(0)}" y="${(py + 148).toFixed(0)}" font-family="sans-serif" font-size="16" font-weight="700" fill="#fff">${index < 16 ? index + 1 : "16 / 16"}</text></g>`;
  // A visitor reading on a phone, on some pictures.
  if (index % 2 === 0) {
    const vx = px + 250 + rand() * 120;
    const vy = h * 0.62;
    body += `<g fill="${["#2d6a4f", "#9d0208", "#3a0ca3", "#bc6c25"][index % 4]}"><circle cx="${vx.toFixed(0)}" cy="${(vy - 95).toFixed(0)}" r="18" fill="#8d5b4c"/><rect x="${(vx - 22).toFixed(0)}" y="${(vy - 75).toFixed(0)}" width="44" height="80" rx="16"/><rect x="${(vx - 18).toFixed(0)}" y="${(vy + 2).toFixed(0)}" width="14" height="70"/><rect x="${(vx + 4).toFixed(0)}" y="${(vy + 2).toFixed(0)}" width="14" height="70"/></g><rect x="${(vx - 38).toFixed(0)}" y="${(vy - 62).toFixed(0)}" width="16" height="26" rx="3" fill="#222"/>`;
  }
  body += `<text x="${w - 16}" y="${h - 16}" text-anchor="end" font-family="sans-serif" font-size="15" fill="#3b2f2f" opacity="0.75">Illustration</text>`;
  return svg(w, h, body);
}

function bubble(x, y, label, fill) {
  return `<g><rect x="${x}" y="${y}" width="220" height="130" rx="26" fill="${fill}"/><path d="M${x + 50} ${y + 128} l-10 40 l44 -40z" fill="${fill}"/><text x="${x + 110}" y="${y + 84}" text-anchor="middle" font-family="sans-serif" font-size="56" font-weight="700" fill="#fff">${label}</text></g>`;
}

function blogCover(kind) {
  const w = 1200;
  const h = 630;
  const rand = rng(kind.length * 131);
  let body = `<rect width="${w}" height="${h}" fill="${SOFT}"/>`;
  for (let i = 0; i < 18; i++)
    body += `<circle cx="${(rand() * w).toFixed(0)}" cy="${(rand() * h).toFixed(0)}" r="${(8 + rand() * 40).toFixed(0)}" fill="${ACCENT}" opacity="0.08"/>`;
  const pairs = { guarani: ["ES", "GN"], albanian: ["FR", "SQ"], malagasy: ["FR", "MG"] };
  if (pairs[kind]) {
    body += bubble(220, 200, pairs[kind][0], BRAND) + bubble(760, 200, pairs[kind][1], ACCENT);
    body += `<path d="M470 265 h250" stroke="${BRAND}" stroke-width="10" stroke-linecap="round"/><path d="M700 240 l30 25 l-30 25" fill="none" stroke="${BRAND}" stroke-width="10" stroke-linecap="round" stroke-linejoin="round"/>`;
  } else if (kind === "why") {
    body += `<rect x="300" y="140" width="260" height="330" fill="#c9a86a"/><rect x="320" y="160" width="220" height="290" fill="#6a8caf"/><circle cx="430" cy="260" r="50" fill="#f3d17a"/><path d="M320 450 l80 -110 l60 70 l40 -40 l40 80z" fill="#3d5a40"/>`;
    body += fakeQr(600, 380, 70, rand);
    body += `<g transform="rotate(-12 800 330)"><rect x="720" y="180" width="170" height="320" rx="26" fill="${BRAND}"/><rect x="734" y="210" width="142" height="260" rx="8" fill="#fff"/>${fakeQr(770, 290, 70, rand)}</g>`;
  } else if (kind === "installation") {
    return siteScene(3, w, h).replace(">Illustration<", ">Illustration<");
  } else {
    body += `<rect y="470" width="${w}" height="160" fill="#7fb0c9"/><rect x="330" y="250" width="540" height="220" fill="#d9cbb4"/>`;
    for (let i = 0; i < 9; i++)
      for (let j = 0; j < 4; j++) body += `<rect x="${345 + i * 58}" y="${265 + j * 50}" width="40" height="30" fill="${BRAND}" opacity="0.75"/>`;
    const words = ["مرحبا", "Γειά", "Merhaba", "Ciao", "Hola", "שלום", "Bonjour"];
    words.forEach((word, k) => {
      const x = 110 + k * 160;
      const y = k % 2 ? 90 : 160;
      body += `<rect x="${x}" y="${y}" width="150" height="60" rx="18" fill="${k % 2 ? ACCENT : BRAND}"/><text x="${x + 75}" y="${y + 40}" text-anchor="middle" font-family="sans-serif" font-size="26" fill="#fff">${esc(word)}</text>`;
    });
  }
  return svg(w, h, body);
}

const STEPS = {
  fr: ["Le musée écrit", "Un code QR par œuvre", "Le visiteur scanne", "Il lit dans sa langue"],
  en: ["The museum writes", "One QR code per work", "The visitor scans", "They read in their language"],
};

function howItWorks(lang) {
  const rand = rng(lang === "fr" ? 11 : 12);
  const w = 1200;
  const h = 420;
  let body = `<rect width="${w}" height="${h}" rx="24" fill="${SOFT}"/>`;
  STEPS[lang].forEach((label, i) => {
    const x = 40 + i * 290;
    body += `<rect x="${x}" y="40" width="250" height="270" rx="20" fill="#fff" stroke="#e4dfe9" stroke-width="2"/>`;
    body += `<circle cx="${x + 34}" cy="74" r="20" fill="${ACCENT}"/><text x="${x + 34}" y="82" text-anchor="middle" font-family="sans-serif" font-size="22" font-weight="700" fill="#fff">${i + 1}</text>`;
    const cx = x + 125;
    if (i === 0)
      body += `<rect x="${cx - 70}" y="110" width="140" height="150" rx="10" fill="${SOFT}"/>${[0, 1, 2, 3, 4].map((l) => `<rect x="${cx - 55}" y="${130 + l * 24}" width="${70 + ((l * 23) % 40)}" height="10" rx="5" fill="${BRAND}" opacity="0.6"/>`).join("")}`;
    if (i === 1) body += fakeQr(cx - 55, 125, 110, rand);
    if (i === 2)
      body += `<rect x="${cx - 45}" y="105" width="90" height="165" rx="16" fill="${BRAND}"/><rect x="${cx - 36}" y="122" width="72" height="128" rx="6" fill="#fff"/>${fakeQr(cx - 26, 150, 52, rand)}`;
    if (i === 3)
      body += `<rect x="${cx - 45}" y="105" width="90" height="165" rx="16" fill="${BRAND}"/><rect x="${cx - 36}" y="122" width="72" height="128" rx="6" fill="#fff"/>${[0, 1, 2, 3].map((l) => `<rect x="${cx - 28}" y="${150 + l * 20}" width="${40 + ((l * 13) % 20)}" height="8" rx="4" fill="${ACCENT}" opacity="0.7"/>`).join("")}<text x="${cx}" y="142" text-anchor="middle" font-family="sans-serif" font-size="13" font-weight="700" fill="${BRAND}">${lang === "fr" ? "Español ▾" : "日本語 ▾"}</text>`;
    body += `<text x="${cx}" y="360" text-anchor="middle" font-family="sans-serif" font-size="24" font-weight="700" fill="${BRAND}">${esc(label)}</text>`;
    if (i < 3) body += `<path d="M${x + 256} 175 l22 0" stroke="${ACCENT}" stroke-width="6" stroke-linecap="round"/>`;
  });
  return svg(w, h, body);
}

const SCHEMA = {
  fr: {
    editor: "Éditeur",
    store: "Articles et codes QR",
    engine: "Traduction automatique",
    memory: "Traductions gardées et relues",
    phone: "Téléphone du visiteur",
    stats: "Statistiques",
  },
  en: {
    editor: "Editor",
    store: "Articles and QR codes",
    engine: "Machine translation",
    memory: "Stored, reviewed translations",
    phone: "Visitor's phone",
    stats: "Statistics",
  },
};

function schema(lang) {
  const t = SCHEMA[lang];
  const box = (x, y, w, label, fill = "#fff", color = BRAND) =>
    `<rect x="${x}" y="${y}" width="${w}" height="90" rx="16" fill="${fill}" stroke="${ACCENT}" stroke-width="3"/><text x="${x + w / 2}" y="${y + 54}" text-anchor="middle" font-family="sans-serif" font-size="22" font-weight="700" fill="${color}">${esc(label)}</text>`;
  const arrow = (x1, y1, x2, y2) => `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${BRAND}" stroke-width="5" marker-end="url(#arrow)"/>`;
  let body = `<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0 0 L10 5 L0 10z" fill="${BRAND}"/></marker></defs><rect width="1200" height="520" rx="24" fill="${SOFT}"/>`;
  body += box(40, 60, 260, t.editor, BRAND, "#fff") + box(420, 60, 360, t.store) + box(900, 60, 260, t.phone, BRAND, "#fff");
  body += box(420, 230, 360, t.engine) + box(420, 390, 360, t.memory) + box(900, 390, 260, t.stats);
  body +=
    arrow(300, 105, 415, 105) +
    arrow(780, 105, 895, 105) +
    arrow(600, 150, 600, 225) +
    arrow(600, 320, 600, 385) +
    arrow(780, 420, 1030, 160) +
    arrow(1030, 150, 1030, 385);
  return svg(1200, 520, body);
}

function founder() {
  let body = `<rect width="400" height="400" rx="200" fill="${SOFT}"/><circle cx="200" cy="160" r="72" fill="#c68b6e"/><path d="M128 150 q72 -110 144 0 q-10 -60 -72 -70 q-62 10 -72 70z" fill="#3b2a26"/><path d="M80 380 q120 -190 240 0z" fill="${ACCENT}"/>`;
  body += `<text x="200" y="385" text-anchor="middle" font-family="sans-serif" font-size="18" fill="${BRAND}">Illustration</text>`;
  return svg(400, 400, body);
}

/** The demo museum's pictures: a work of each room, drawn, rasterised to WebP at upload size. */
function demoPicture(kind) {
  const rand = rng(kind.length * 977);
  let body = `<rect width="800" height="560" fill="#f4efe6"/>`;
  if (kind === "amphora") {
    body += `<rect width="800" height="560" fill="#e9e1d3"/><path d="M360 90 h80 v30 q70 30 80 140 q10 140 -70 230 h-100 q-80 -90 -70 -230 q10 -110 80 -140z" fill="#b5653b"/><path d="M360 130 q-60 10 -60 70" fill="none" stroke="#8e4a29" stroke-width="14"/><path d="M440 130 q60 10 60 70" fill="none" stroke="#8e4a29" stroke-width="14"/><path d="M320 280 h160" stroke="#2b1d14" stroke-width="8"/><path d="M315 320 h170" stroke="#2b1d14" stroke-width="4" stroke-dasharray="12 8"/>`;
  } else if (kind === "mosaic") {
    for (let i = 0; i < 40; i++)
      for (let j = 0; j < 28; j++)
        body += `<rect x="${i * 20}" y="${j * 20}" width="19" height="19" fill="${(i - 20) ** 2 + (j - 14) ** 2 < 90 ? ["#1d4e89", "#2a6fb5", "#13315c"][Math.floor(rand() * 3)] : (i + j) % 9 === 0 ? "#b5653b" : ["#e8dcc4", "#dfd0b3", "#efe6d3"][Math.floor(rand() * 3)]}"/>`;
  } else if (kind === "map") {
    body += `<rect width="800" height="560" fill="#9fc7e0"/><path d="M0 300 q120 -60 220 -20 q80 30 160 -40 q120 -90 240 -30 q90 40 180 10 v340 h-800z" fill="#e3cfa5"/><circle cx="420" cy="270" r="14" fill="${BRAND}"/><path d="M100 160 q200 60 320 110" fill="none" stroke="${BRAND}" stroke-width="5" stroke-dasharray="14 10"/><path d="M120 120 l30 60 l-60 0z" fill="#fff"/>`;
  } else if (kind === "coin") {
    body += `<rect width="800" height="560" fill="#2b2233"/><circle cx="400" cy="280" r="190" fill="#c9a44c"/><circle cx="400" cy="280" r="160" fill="none" stroke="#8f7128" stroke-width="6"/><path d="M330 340 q20 -150 90 -140 q50 10 40 60 q-20 40 10 80z" fill="#8f7128"/>`;
  } else if (kind === "harbour") {
    body += `<rect width="800" height="560" fill="#f6d7a7"/><rect y="330" width="800" height="230" fill="#3e7cb1"/><path d="M180 330 l60 -150 l10 150z" fill="#fff"/><path d="M140 330 h160 l-20 40 h-120z" fill="#6b3e26"/><path d="M480 330 l50 -120 l8 120z" fill="#fff"/><path d="M450 330 h130 l-15 30 h-100z" fill="#6b3e26"/><circle cx="640" cy="120" r="50" fill="#ffb347"/>`;
  } else {
    body += `<rect width="800" height="560" fill="${SOFT}"/><circle cx="400" cy="280" r="120" fill="${ACCENT}"/>`;
  }
  body += `<text x="784" y="544" text-anchor="end" font-family="sans-serif" font-size="18" fill="#000" opacity="0.55">Illustration</text>`;
  return svg(800, 560, body);
}

const write = (path, text) => {
  mkdirSync(join(ROOT, path, ".."), { recursive: true });
  writeFileSync(join(ROOT, path), text);
};

for (let i = 0; i < 17; i++) write(`public/site/carousel/${String(i + 1).padStart(2, "0")}.svg`, siteScene(i));
for (const kind of ["guarani", "albanian", "malagasy", "why", "installation", "mucem"]) {
  const text = blogCover(kind);
  write(`public/blog/${kind}.svg`, text);
  // Social networks do not show SVG cards: a PNG twin for og:image.
  await sharp(Buffer.from(text))
    .resize(1200, 630)
    .png({ compressionLevel: 9, palette: true })
    .toFile(join(ROOT, `public/blog/${kind}.png`));
}
for (const lang of ["fr", "en"]) {
  write(`public/site/how-${lang}.svg`, howItWorks(lang));
  write(`public/site/schema-${lang}.svg`, schema(lang));
}
write("public/site/founder.svg", founder());
for (const kind of ["amphora", "mosaic", "map", "coin", "harbour"]) {
  await sharp(Buffer.from(demoPicture(kind)))
    .webp({ quality: 78 })
    .toFile(join(ROOT, `scripts/demo-assets/${kind}.webp`));
}
console.log("Illustrations written.");
