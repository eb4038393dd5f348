import { identifyLanguage, isInLanguage } from "../../shared/text/language";

describe("language identification (franc)", () => {
  it.each([
    ["en", "The package manager keeps a local database of the packages installed on the system."],
    ["fr", "Le gestionnaire de paquets conserve une base de données locale des paquets installés sur le système."],
    ["de", "Der Paketmanager speichert eine lokale Datenbank der auf dem System installierten Pakete."],
    ["es", "El gestor de paquetes mantiene una base de datos local de los paquetes instalados en el sistema."],
  ])("identifies %s sentences", (lang, text) => {
    expect(identifyLanguage(text)).toBe(lang);
  });

  it("does not judge two-word headings", () => {
    expect(identifyLanguage("Fazit")).toBe("und");
    expect(isInLanguage("Conclusion", "de")).toBe(true);
  });

  it("finds English under translated framing", () => {
    expect(isInLanguage("Cet article s'intéresse à how retailers forecast demand and plan promotions for their stores every week.", "fr")).toBe(false);
  });

  it("leaves the customer's literal topic out of the judgement", () => {
    const framing = "Dieser Artikel beschäftigt sich mit how retailers forecast demand und erklärt die wichtigsten Schritte.";
    expect(isInLanguage(framing, "de", ["how retailers forecast demand"])).toBe(true);
  });
});
