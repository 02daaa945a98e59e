/** Facts about the product and its makers shown across the public site, kept in one place. */
export const siteConfig = {
  productName: "Muselingo",
  contactEmail: "contact@muselingo.com",
  author: { name: "Muselingo SAS", url: "https://www.linkedin.com/company/muselingo" },
  professionalNetworkUrl: "https://www.linkedin.com/company/muselingo",
  // External scheduling service shown in the demo-booking popup.
  booking: { url: "https://calendly.com/muselingo/demo", origin: "https://calendly.com", height: 630 },
  creditYear: 2025,
} as const;
