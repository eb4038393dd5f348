import { languageProfile } from "../../services/pipeline/article/language";
import { isWellFormedQuestion, properNouns, questionFromUnit } from "../../services/pipeline/article/search/faq";
import { embedPhrase } from "../../services/pipeline/article/search/topic-phrasing";
import type { EvidenceUnit } from "../../services/pipeline/article/evidence/units";

/** The questions a sentence's own shape asks in a language (`LanguageProfile.faqShapes`). */
const asked = (lang: string, sentence: string) =>
  languageProfile(lang)
    .faqShapes.map(({ shape, ask }) => {
      const m = shape.exec(sentence);
      return m ? ask(m) : undefined;
    })
    .filter(Boolean);

const unit = (text: string): EvidenceUnit => ({ key: "e#0", evidenceId: "e", heading: "", position: 0, sentences: [text], text, words: text.split(" ").length, terms: new Set() });

describe("questions made from an evidence sentence's shape", () => {
  it("asks how to do something only when a purpose clause opens with an infinitive", () => {
    // Read in the Spanish package-management article: "¿Cómo actualizaciones parciales de un sistema estable?" has no verb.
    expect(asked("es", "Para actualizaciones parciales de un sistema estable, es deseable reconstruir un paquete con su entorno.")).toEqual([]);
    expect(asked("es", "Para instalar un paquete, use la orden apt.")).toEqual(["¿Cómo instalar un paquete?"]);
    expect(asked("fr", "Pour des petites sauvegardes de données, utilisez rsync.")).toEqual([]);
    expect(asked("fr", "Pour rechercher les dépendances de paquets, vous devrez utiliser apt-rdepends(8).")).toEqual(["Comment rechercher les dépendances de paquets ?"]);
    expect(asked("en", "To restore a backup, run the script.")).toEqual(["How do you restore a backup?"]);
    expect(asked("en", "To date, nothing has changed in the archive.")).toEqual([]);
  });

  it("never asks about what a pronoun attached to the infinitive stood for", () => {
    expect(asked("es", "Para configurarlo correctamente, edite el archivo de la red.")).toEqual([]);
    expect(asked("fr", "Pour le faire correctement, éditez le fichier de configuration.")).toEqual([]);
  });

  it("asks what a name is when a definition opens with one, and never what a pronoun is", () => {
    expect(asked("fr", "Aptitude est un outil de gestion des paquets.")).toEqual(["Qu'est-ce qu'Aptitude ?"]);
    expect(asked("fr", "Synaptic est un gestionnaire graphique de paquets.")).toEqual(["Qu'est-ce que Synaptic ?"]);
    expect(asked("de", "Aptitude ist ein Werkzeug zur Paketverwaltung.")).toEqual(["Was ist Aptitude?"]);
    expect(asked("es", "Debian es una distribución libre de GNU/Linux.")).toEqual(["¿Qué es Debian?"]);
    expect(asked("fr", "Il est un outil de gestion des paquets.")).toEqual([]);
    expect(asked("de", "Dies ist ein Werkzeug zur Paketverwaltung.")).toEqual([]);
    expect(asked("es", "Esto es un problema de la red.")).toEqual([]);
  });

  it("keeps a leading article lower case inside a question (read: \"What does The APT system do?\")", () => {
    // The sources capitalise "The" mid-sentence in a title and "APT" as a name: only the name stays a name.
    const names = properNouns([unit("Read The Debian Administrator's Handbook on APT first.")], "en");
    expect(names.has("APT")).toBe(true);
    expect(questionFromUnit(unit("The APT system chooses the highest Pin-Priority package from the sources."), names)).toBe("What does the APT system do?");
    expect(embedPhrase("The APT system")).toBe("the APT system");
    expect(embedPhrase("The Compost Co pricing", "The Compost Co")).toBe("The Compost Co pricing");
  });
});

describe("well-formed questions", () => {
  const brief = { language: "en", topic: "APT package management", keyword: "apt" };
  it("refuses a thing named by its place in a list or in the text (read: \"What is the 1st argument?\")", () => {
    expect(isWellFormedQuestion("What is the 1st argument?", brief)).toBe(false);
    expect(isWellFormedQuestion("What does the latter do?", brief)).toBe(false);
    expect(isWellFormedQuestion("Qu'est-ce que le 2e argument ?", { ...brief, language: "fr", topic: "Gestion des paquets" })).toBe(false);
    expect(isWellFormedQuestion("What is the apt command?", brief)).toBe(true);
  });
});
