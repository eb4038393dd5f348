import type { Lang } from "./sites";

export type Derivative = "x_thread" | "linkedin" | "newsletter";

export interface QualityCase {
  /** Names the case in tables and the markdown file (`<language>-<id>.md`). */
  id: string;
  /** The brand profile (one per debian-reference language) the article is grounded in. */
  profile: Lang;
  request: {
    topic: string;
    target_keyword?: string;
    language: string;
    mode: "standard" | "deep_research";
    target_words: number;
    image?: boolean;
    derivatives?: Derivative[];
  };
  /** What an honest platform does: write the article, or refuse it (job fails, credits come back exactly). */
  expect: "success" | "refusal";
  /** Why: which part of the manual covers it, or why nothing does. */
  why: string;
}

const ALL_DERIVATIVES: Derivative[] = ["x_thread", "linkedin", "newsletter"];

/**
 * The jobs. Covered topics were checked against the chapter headings and text of that language's manual
 * (section numbers in `why`); uncovered ones have no passage about them in any language of the manual.
 */
export const CASES: QualityCase[] = [
  // English profile
  {
    id: "apt-pinning",
    profile: "en",
    request: { topic: "APT pinning and the candidate version", target_keyword: "APT pinning", language: "en", mode: "standard", target_words: 1000, image: true, derivatives: ALL_DERIVATIVES },
    expect: "success",
    why: "ch02 2.7.3 Tweaking candidate version, Pin-Priority in 2.7.6–2.7.10",
  },
  {
    id: "backup-restore",
    profile: "en",
    request: { topic: "Backing up and restoring data", target_keyword: "backup and recovery", language: "en", mode: "deep_research", target_words: 1600 },
    expect: "success",
    why: "ch10 10.2 Backup and recovery (policy, utility suites, personal backup)",
  },
  {
    id: "apt-package-management",
    profile: "en",
    request: { topic: "Debian package management with apt", target_keyword: "apt package management", language: "en", mode: "standard", target_words: 1200 },
    expect: "success",
    why: "ch02 2.1–2.2 package management prerequisites and basic operations",
  },
  {
    id: "iproute2-network",
    profile: "en",
    request: { topic: "Low level network configuration with iproute2", target_keyword: "iproute2 commands", language: "en", mode: "standard", target_words: 600 },
    expect: "success",
    why: "ch05 5.4 The low level network configuration, 5.4.1 Iproute2 commands",
  },
  {
    id: "accounts-passwords",
    profile: "en",
    request: { topic: "Managing user accounts and passwords", target_keyword: "password", language: "en", mode: "deep_research", target_words: 800, derivatives: ["linkedin"] },
    expect: "success",
    why: "ch04 4.2 Managing account and password information, 4.3 Good password, 4.4 Creating encrypted password",
  },
  // French profile
  {
    id: "gestion-paquets-apt",
    profile: "fr",
    request: { topic: "La gestion des paquets Debian avec apt", target_keyword: "gestion des paquets", language: "fr", mode: "standard", target_words: 1200, image: true, derivatives: ALL_DERIVATIVES },
    expect: "success",
    why: "ch02 2.1–2.2 Prérequis pour la gestion des paquets, opérations de base",
  },
  {
    id: "sauvegarde-restauration",
    profile: "fr",
    request: { topic: "Sauvegarde et restauration des données", target_keyword: "sauvegarde", language: "fr", mode: "deep_research", target_words: 1000 },
    expect: "success",
    why: "ch10 10.2 Sauvegarde et restauration, 10.2.2 Suites d’utilitaires de sauvegarde",
  },
  {
    id: "gnupg-fichiers",
    profile: "fr",
    request: { topic: "Chiffrer des fichiers avec GnuPG", target_keyword: "GnuPG", language: "fr", mode: "standard", target_words: 600 },
    expect: "success",
    why: "ch10 10.3.1 Gestion de clés pour GnuPG, 10.3.2 Utilisation de GnuPG sur des fichiers",
  },
  // German profile
  {
    id: "datensicherung",
    profile: "de",
    request: { topic: "Datensicherung und Wiederherstellung", target_keyword: "Datensicherung", language: "de", mode: "standard", target_words: 1000, derivatives: ALL_DERIVATIVES },
    expect: "success",
    why: "ch10 10.2 Datensicherung und -wiederherstellung, 10.2.1 Richtlinien, 10.2.2 Programmsammlungen",
  },
  {
    id: "paketmanagement",
    profile: "de",
    request: { topic: "Paketmanagement mit apt und aptitude", target_keyword: "Paketmanagement", language: "de", mode: "deep_research", target_words: 1400, image: true },
    expect: "success",
    why: "ch02 2.1–2.4 Debian-Paketmanagement, aptitude-Operationen",
  },
  {
    id: "passwort-sicherheit",
    profile: "de",
    request: { topic: "Sichere Passwörter und Authentifizierung", target_keyword: "Passwort", language: "de", mode: "standard", target_words: 800 },
    expect: "success",
    why: "ch04 4.3 Ein gutes Passwort, 4.6 Sicherheit der Authentifizierung",
  },
  // Spanish profile
  {
    id: "configuracion-red",
    profile: "es",
    request: { topic: "Configuración de la red", target_keyword: "configuración de red", language: "es", mode: "standard", target_words: 800 },
    expect: "success",
    why: "ch05 5.1 La infraestructura de red básica, 5.2 La configuración moderna de red, 5.4 configuración de red de bajo nivel",
  },
  {
    id: "gestion-paquetes",
    profile: "es",
    request: { topic: "Gestión de paquetes Debian con apt", target_keyword: "gestión de paquetes", language: "es", mode: "deep_research", target_words: 1400, image: true, derivatives: ALL_DERIVATIVES },
    expect: "success",
    why: "ch02 2.1–2.2 Prerequisitos y operaciones básicas de la gestión de paquetes",
  },
  {
    id: "copias-seguridad",
    profile: "es",
    request: { topic: "Copias de seguridad y recuperación de datos", target_keyword: "copias de seguridad", language: "es", mode: "standard", target_words: 1000 },
    expect: "success",
    why: "ch10 10.2 Respaldo y recuperación, 10.2.2 Suites de utilidades de copias de seguridad",
  },
  // A French article asked of the English-only profile: the offline writer can only quote English evidence.
  {
    id: "fr-on-english-profile",
    profile: "en",
    request: { topic: "La gestion des paquets Debian avec apt", target_keyword: "gestion des paquets", language: "fr", mode: "standard", target_words: 800 },
    expect: "refusal",
    why: "the English profile has no French evidence; without a model nothing French can be quoted",
  },
  // Topics the manual does not cover in any language.
  {
    id: "crm-real-estate",
    profile: "en",
    request: { topic: "Best CRM software for small real estate agencies", target_keyword: "real estate CRM", language: "en", mode: "standard", target_words: 1200, derivatives: ALL_DERIVATIVES },
    expect: "refusal",
    why: "no passage about CRM or real estate in the manual",
  },
  {
    id: "llm-lora",
    profile: "en",
    request: { topic: "Fine-tuning an LLM with LoRA", target_keyword: "LoRA fine-tuning", language: "en", mode: "deep_research", target_words: 1400 },
    expect: "refusal",
    why: "no passage about language models or LoRA in the manual",
  },
  {
    id: "retail-demand-forecasting",
    profile: "en",
    request: { topic: "How retailers forecast demand", target_keyword: "demand forecasting", language: "en", mode: "standard", target_words: 1000, image: true },
    expect: "refusal",
    why: "no passage about retail or demand forecasting in the manual",
  },
  {
    id: "sauerteigbrot",
    profile: "de",
    request: { topic: "Sauerteigbrot backen für Anfänger", target_keyword: "Sauerteig", language: "de", mode: "standard", target_words: 800 },
    expect: "refusal",
    why: "no passage about baking in the manual",
  },
  {
    id: "marketing-restaurants",
    profile: "fr",
    request: { topic: "Stratégies de marketing pour les restaurants", target_keyword: "marketing de restaurant", language: "fr", mode: "standard", target_words: 800 },
    expect: "refusal",
    why: "no passage about marketing or restaurants in the manual",
  },
];
