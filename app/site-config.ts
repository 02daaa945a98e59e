/** Facts about the product and its makers shown across the public site, kept in one place. */
export const siteConfig = {
  productName: "Muselingo",
  contactEmail: "contact@muselingo.com",
  author: { name: "Muselingo SAS", url: "https://www.linkedin.com/company/muselingo" },
  professionalNetworkUrl: "https://www.linkedin.com/company/muselingo",
  // External scheduling service shown in the demo-booking popup.
  booking: { url: "https://calendly.com/muselingo/demo", origin: "https://calendly.com", height: 630 },
  founder: {
    // Shown above the bio when set; left empty until the operator writes the founder's real name.
    name: "",
    email: "contact@muselingo.com",
    // An illustrated portrait (public/site/founder.svg); an operator replaces it with a real photo.
    picture: "/site/founder.svg",
  },
  partnerMuseum: {
    name: "Musée d'histoire de Marseille",
    panels: 16,
    // The sources disagree on the day; the site gives both readings (spec §1).
    installedOn: ["2025-02-27", "2025-02-28", "2025-03-01"],
    articleUrl: "https://musee-histoire.marseille.fr/",
    photoCount: 17,
  },
  // The seeded demo museum's QR code shown on the landing ("Test it!"): scripts/seed-demo.mjs creates it.
  demoVisitorLink: "essayez2",
} as const;

/** The footer's credit year: the current one, never a hard-coded year. */
export function creditYear(now: Date = new Date()): number {
  return now.getUTCFullYear();
}
