import type { ProfileName } from "./sites";

export type Derivative = "x_thread" | "linkedin" | "newsletter";

export interface QualityCase {
  /** Names the case in tables and the markdown file (`<language>-<id>.md`). */
  id: string;
  /** The brand profile the article is grounded in: one per debian-reference language, or a pasted knowledge base. */
  profile: ProfileName;
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
  /**
   * What a sentence on this request's subject says, written by hand for this request: words and phrases
   * matched whole in the lower-cased sentence, a trailing `*` matching any word that starts so ("sauvegard*"
   * covers "sauvegarde", "sauvegarder"). The on-topic
   * judge uses only this list: never the pipeline's tokenizer, word lists or the article's headings, so it
   * cannot agree with the writer by construction. Refusal cases need none.
   */
  vocabulary?: string[];
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
    vocabulary: ["pin*", "priorit*", "candidate version*", "apt_preferences", "preferences", "policy", "target release", "backport*", "testing", "unstable", "stable", "release*", "version*"],
  },
  {
    id: "backup-restore",
    profile: "en",
    request: { topic: "Backing up and restoring data", target_keyword: "backup and recovery", language: "en", mode: "deep_research", target_words: 1600 },
    expect: "success",
    why: "ch10 10.2 Backup and recovery (policy, utility suites, personal backup)",
    vocabulary: ["backup*", "back up", "backing up", "restor*", "recover*", "archiv*", "rsync", "tar", "snapshot*", "bacula", "amanda", "backupninja", "dump*", "mirror*", "disk image*", "data loss"],
  },
  {
    id: "apt-package-management",
    profile: "en",
    request: { topic: "Debian package management with apt", target_keyword: "apt package management", language: "en", mode: "standard", target_words: 1200 },
    expect: "success",
    why: "ch02 2.1–2.2 package management prerequisites and basic operations",
    vocabulary: ["package*", "apt", "apt-get", "dpkg", "aptitude", "install*", "upgrad*", "dependenc*", "repositor*", "archive*", "sources.list", "synaptic", "remov*", "purg*"],
  },
  {
    id: "iproute2-network",
    profile: "en",
    request: { topic: "Low level network configuration with iproute2", target_keyword: "iproute2 commands", language: "en", mode: "standard", target_words: 600 },
    expect: "success",
    why: "ch05 5.4 The low level network configuration, 5.4.1 Iproute2 commands",
    vocabulary: ["ip", "iproute*", "ifconfig", "rout*", "interface*", "network*", "address*", "link*", "netstat", "ss", "ping", "tcp", "udp", "socket*", "lan", "gateway*"],
  },
  {
    id: "accounts-passwords",
    profile: "en",
    request: { topic: "Managing user accounts and passwords", target_keyword: "password", language: "en", mode: "deep_research", target_words: 800, derivatives: ["linkedin"] },
    expect: "success",
    why: "ch04 4.2 Managing account and password information, 4.3 Good password, 4.4 Creating encrypted password",
    vocabulary: ["password*", "passwd", "account*", "user*", "login*", "log in", "shadow", "pam", "authenticat*", "group*", "credential*", "root", "sudo", "encrypt*", "hash*", "crypt*"],
  },
  // French profile
  {
    id: "gestion-paquets-apt",
    profile: "fr",
    request: { topic: "La gestion des paquets Debian avec apt", target_keyword: "gestion des paquets", language: "fr", mode: "standard", target_words: 1200, image: true, derivatives: ALL_DERIVATIVES },
    expect: "success",
    why: "ch02 2.1–2.2 Prérequis pour la gestion des paquets, opérations de base",
    vocabulary: ["paquet*", "apt", "apt-get", "dpkg", "aptitude", "install*", "mise à jour", "mettre à jour", "dépendance*", "dépôt*", "archive*", "sources.list", "synaptic", "suppr*", "purge*", "upgrade"],
  },
  {
    id: "sauvegarde-restauration",
    profile: "fr",
    request: { topic: "Sauvegarde et restauration des données", target_keyword: "sauvegarde", language: "fr", mode: "deep_research", target_words: 1000 },
    expect: "success",
    why: "ch10 10.2 Sauvegarde et restauration, 10.2.2 Suites d’utilitaires de sauvegarde",
    vocabulary: ["sauvegard*", "restaur*", "récupér*", "archiv*", "rsync", "tar", "copie*", "instantané*", "bacula", "amanda", "backupninja", "perte de données", "dump*", "miroir*"],
  },
  {
    id: "gnupg-fichiers",
    profile: "fr",
    request: { topic: "Chiffrer des fichiers avec GnuPG", target_keyword: "GnuPG", language: "fr", mode: "standard", target_words: 600 },
    expect: "success",
    why: "ch10 10.3.1 Gestion de clés pour GnuPG, 10.3.2 Utilisation de GnuPG sur des fichiers",
    vocabulary: ["gpg", "gnupg", "chiffr*", "crypt*", "clé*", "clef*", "signature*", "signer", "signé*", "déchiffr*"],
  },
  // Added at the sixth stop ("how it works" as an angle; vocabulary written before the run).
  {
    id: "fonctionnement-sudo",
    profile: "fr",
    request: { topic: "Comment fonctionne sudo ?", target_keyword: "sudo", language: "fr", mode: "standard", target_words: 600 },
    expect: "success",
    why: "ch01 1.1.12 et ch04 4.7.2 sudo, 4.7 Autres contrôles d'accès",
    vocabulary: ["sudo", "sudoers", "root", "superutilisateur", "super-utilisateur", "privilège*", "administrat*", "mot de passe", "mots de passe", "visudo", "su", "utilisateur*", "droit*", "commande*"],
  },
  // German profile
  {
    id: "datensicherung",
    profile: "de",
    request: { topic: "Datensicherung und Wiederherstellung", target_keyword: "Datensicherung", language: "de", mode: "standard", target_words: 1000, derivatives: ALL_DERIVATIVES },
    expect: "success",
    why: "ch10 10.2 Datensicherung und -wiederherstellung, 10.2.1 Richtlinien, 10.2.2 Programmsammlungen",
    vocabulary: ["sicherung*", "sichern", "datensicher*", "backup*", "wiederherstell*", "archiv*", "rsync", "tar", "kopie*", "snapshot*", "bacula", "amanda", "backupninja", "datenverlust*"],
  },
  {
    id: "paketmanagement",
    profile: "de",
    request: { topic: "Paketmanagement mit apt und aptitude", target_keyword: "Paketmanagement", language: "de", mode: "deep_research", target_words: 1400, image: true },
    expect: "success",
    why: "ch02 2.1–2.4 Debian-Paketmanagement, aptitude-Operationen",
    vocabulary: ["paket*", "apt", "apt-get", "dpkg", "aptitude", "install*", "aktualisier*", "upgrade*", "abhängigkeit*", "depot*", "archiv*", "sources.list", "synaptic", "entfern*", "purge"],
  },
  {
    id: "passwort-sicherheit",
    profile: "de",
    request: { topic: "Sichere Passwörter und Authentifizierung", target_keyword: "Passwort", language: "de", mode: "standard", target_words: 800 },
    expect: "success",
    why: "ch04 4.3 Ein gutes Passwort, 4.6 Sicherheit der Authentifizierung",
    vocabulary: ["passwort*", "kennwort*", "passwd", "authentifi*", "anmeld*", "login*", "konto*", "benutzer*", "shadow", "pam", "verschlüssel*", "hash*", "root", "sudo"],
  },
  // Added at the sixth stop (a compound the manual does not use as one word; vocabulary written before the run).
  {
    id: "dateiberechtigungen",
    profile: "de",
    request: { topic: "Dateiberechtigungen verstehen", target_keyword: "Dateiberechtigungen", language: "de", mode: "standard", target_words: 800 },
    expect: "success",
    why: "ch01 1.2.3 Dateisystem-Berechtigungen, 1.2.4 Steuerung der Berechtigungen für neu erzeugte Dateien: umask, 1.2.5 Berechtigungen für Gruppen von Benutzern",
    vocabulary: ["berechtigung*", "rechte", "zugriffsrecht*", "chmod", "chown", "chgrp", "umask", "besitzer*", "eigentümer*", "gruppe*", "lese*", "schreib*", "ausführ*", "setuid", "setgid", "sticky", "modus", "rwx", "permission*", "datei*", "verzeichnis*"],
  },
  // Spanish profile
  {
    id: "configuracion-red",
    profile: "es",
    request: { topic: "Configuración de la red", target_keyword: "configuración de red", language: "es", mode: "standard", target_words: 800 },
    expect: "success",
    why: "ch05 5.1 La infraestructura de red básica, 5.2 La configuración moderna de red, 5.4 configuración de red de bajo nivel",
    vocabulary: ["red", "redes", "interfaz*", "interface*", "ip", "dirección*", "direcciones", "ifupdown", "networkmanager", "dhcp", "dns", "ruta*", "enrutamiento", "conexi*", "wifi", "ethernet", "puerta de enlace", "systemd-networkd", "network*"],
  },
  {
    id: "gestion-paquetes",
    profile: "es",
    request: { topic: "Gestión de paquetes Debian con apt", target_keyword: "gestión de paquetes", language: "es", mode: "deep_research", target_words: 1400, image: true, derivatives: ALL_DERIVATIVES },
    expect: "success",
    why: "ch02 2.1–2.2 Prerequisitos y operaciones básicas de la gestión de paquetes",
    vocabulary: ["paquete*", "apt", "apt-get", "dpkg", "aptitude", "instal*", "actualiz*", "dependencia*", "repositorio*", "sources.list", "synaptic", "elimin*", "purg*", "upgrade"],
  },
  {
    id: "copias-seguridad",
    profile: "es",
    request: { topic: "Copias de seguridad y recuperación de datos", target_keyword: "copias de seguridad", language: "es", mode: "standard", target_words: 1000 },
    expect: "success",
    why: "ch10 10.2 Respaldo y recuperación, 10.2.2 Suites de utilidades de copias de seguridad",
    vocabulary: ["copia*", "respaldo*", "backup*", "recuper*", "restaur*", "rsync", "tar", "instantánea*", "bacula", "amanda", "backupninja", "pérdida*"],
  },
  // English profile: requests phrased the way customers type them (an angle around the subject).
  {
    id: "debian-server-backup-practices",
    profile: "en",
    request: { topic: "Best practices for backing up a Debian server", target_keyword: "Debian server backup", language: "en", mode: "standard", target_words: 1000 },
    expect: "success",
    why: "ch10 10.2 Backup and recovery: policy, utility suites, tips; the angle (best practices) is not a subject",
    vocabulary: ["backup*", "back up", "backing up", "restor*", "recover*", "archiv*", "rsync", "tar", "snapshot*", "bacula", "amanda", "backupninja", "dump*", "mirror*", "disk image*", "data loss"],
  },
  {
    id: "systemd-getting-started",
    profile: "en",
    request: { topic: "Getting started with systemd", target_keyword: "systemd", language: "en", mode: "standard", target_words: 800 },
    expect: "success",
    why: "ch03 3.2 systemd init, unit files, systemctl, journal",
    vocabulary: ["systemd", "systemctl", "unit*", "service*", "target*", "init", "boot*", "journal*", "daemon*", "socket*", "timer*", "mount*", "runlevel*", "pid 1", "logind", "enable*", "start*", "stop*"],
  },
  // Pasted composting facts (30 sentences in two text sources): a small knowledge base, whose subject is every request's.
  {
    id: "start-composting",
    profile: "composting",
    request: { topic: "How to start composting at home", target_keyword: "composting at home", language: "en", mode: "standard", target_words: 600 },
    expect: "success",
    why: "the whole knowledge base is about home composting",
    vocabulary: ["compost*", "heap*", "bin", "bins", "green*", "brown*", "carbon", "nitrogen", "worm*", "wormery", "bokashi", "scraps", "peelings", "cardboard", "leaves", "turn*", "damp", "smell*", "rats", "pests", "mulch*", "soil", "food waste", "kitchen", "break down", "breaking down", "rotten", "air", "landfill", "methane", "weeds", "seedlings"],
  },
  {
    id: "compost-bin-contents",
    profile: "composting",
    request: { topic: "What can you put in a compost bin?", target_keyword: "compost bin", language: "en", mode: "standard", target_words: 600 },
    expect: "success",
    why: "greens and browns, and what not to compost: about half the facts",
    vocabulary: ["green material*", "brown material*", "peelings", "scraps", "coffee", "grass", "cardboard", "paper", "straw", "leaves", "tea bags", "meat", "fish", "dairy", "cooked food", "oil", "fat", "weeds", "diseased", "magazines", "coal ash", "cat litter", "food waste", "nitrogen", "carbon", "stems", "branches", "do not belong", "should never go", "go in"],
  },
  {
    id: "composting-mistakes",
    profile: "composting",
    request: { topic: "Common composting mistakes to avoid", target_keyword: "composting mistakes", language: "en", mode: "standard", target_words: 600 },
    expect: "success",
    why: "smells, wet and dry heaps, pests, what survives composting",
    vocabulary: ["too much", "too little", "smell*", "slimy", "wet", "dry", "slow", "rats", "pests", "attract*", "never go", "do not belong", "do not break down", "survive", "spread", "air", "turn*", "damp", "meat", "dairy", "cooked food", "diseased", "weeds", "cardboard", "balance*", "equal volumes", "mix", "green material*", "brown material*"],
  },
  {
    id: "composting-crm",
    profile: "composting",
    request: { topic: "Best CRM software for small real estate agencies", target_keyword: "real estate CRM", language: "en", mode: "standard", target_words: 600 },
    expect: "refusal",
    why: "nothing about software or real estate in composting facts",
  },
  // Pasted notes in French (bicycle maintenance, 28 facts) and German (houseplant care, 28 facts), added on
  // 2026-11-27 with their verdicts and vocabularies written from the facts before any article was asked.
  {
    id: "entretien-velo",
    profile: "velo",
    request: { topic: "Comment entretenir son vélo", target_keyword: "entretien vélo", language: "fr", mode: "standard", target_words: 600 },
    expect: "success",
    why: "the whole knowledge base is about maintaining a bicycle",
    vocabulary: ["vélo*", "chaîne*", "pneu*", "frein*", "dérailleur*", "roue*", "graiss*", "huile", "nettoy*", "lav*", "pression", "crevaison", "rustine", "chambre à air", "câble*", "patins", "plaquettes", "disque*", "vis", "serr*", "rouille", "révision", "règl*", "pompe", "clé*", "usure", "usé*", "pignons", "levier", "potence", "cintre", "selle", "démonte-pneus", "dérive-chaîne", "réparations"],
  },
  {
    id: "erreurs-entretien-velo",
    profile: "velo",
    request: { topic: "Les erreurs à éviter dans l'entretien d'un vélo", target_keyword: "entretien d'un vélo", language: "fr", mode: "standard", target_words: 600 },
    expect: "success",
    why: "too much oil, a dry or worn chain, wrong tyre pressure, oil on brakes, pressure washers, over-tightening",
    vocabulary: ["trop", "jamais", "excessi*", "sous-gonflés", "sèche", "grince", "usée", "use plus vite", "sauter", "abrasive", "poussière", "abîme", "fendre", "rouille", "haute pression", "détendu", "mal réglé", "spongieux", "crevaison", "risque", "adhère moins", "excès d'huile", "frottent", "voilées"],
  },
  {
    id: "velo-assurance",
    profile: "velo",
    request: { topic: "Choisir une assurance habitation", target_keyword: "assurance habitation", language: "fr", mode: "standard", target_words: 600 },
    expect: "refusal",
    why: "nothing about insurance in bicycle maintenance notes",
  },
  {
    id: "zimmerpflanzen-pflegen",
    profile: "zimmerpflanzen",
    request: { topic: "Zimmerpflanzen richtig pflegen", target_keyword: "Zimmerpflanzen pflegen", language: "de", mode: "standard", target_words: 600 },
    expect: "success",
    why: "the whole knowledge base is about houseplant care",
    vocabulary: ["pflanze*", "zimmerpflanze*", "gieß*", "wasser*", "topf", "töpfe", "wurzel*", "erde", "erdschicht", "blumenerde", "blätter*", "blatt*", "licht", "sonne", "mittagssonne", "hell*", "dunkel", "dünger", "gedüngt", "umgetopft", "umtopf*", "spinnmilben", "trauermücken", "blattläuse", "luftfeuchtigkeit", "heizung*", "staunässe", "kakteen", "sukkulenten", "monstera", "stecklinge", "fenster", "nordfenster", "platz", "zugluft", "triebe", "staub", "trocken*", "feucht*", "schädling*"],
  },
  {
    id: "giessfehler",
    profile: "zimmerpflanzen",
    request: { topic: "Häufige Fehler beim Gießen von Zimmerpflanzen", target_keyword: "Zimmerpflanzen gießen", language: "de", mode: "standard", target_words: 600 },
    expect: "success",
    why: "too much water, waterlogging, drainage, checking the soil, winter, lime, yellow leaves, succulents",
    vocabulary: ["gieß*", "gegossen", "wasser*", "staunässe", "feucht*", "trocken*", "wurzel*", "faul*", "abzugsloch", "erdschicht", "kalk*", "zu viel", "zu wenig", "zu häufig", "weniger wasser", "gelbe", "weiche", "trockenphasen", "speichern"],
  },
  {
    id: "zimmerpflanzen-steuer",
    profile: "zimmerpflanzen",
    request: { topic: "Steuererklärung für Selbstständige", target_keyword: "Steuererklärung", language: "de", mode: "standard", target_words: 600 },
    expect: "refusal",
    why: "nothing about taxes in houseplant notes",
  },
  // Pasted notes in Spanish (a home vegetable garden, 26 facts), added at the fourth stop like the two above.
  {
    id: "empezar-huerto",
    profile: "huerto",
    request: { topic: "Cómo empezar un huerto en casa", target_keyword: "huerto en casa", language: "es", mode: "standard", target_words: 600 },
    expect: "success",
    why: "the whole knowledge base is about growing vegetables at home",
    vocabulary: ["huerto*", "riego", "reg*", "sol", "tomat*", "lechug*", "zanahori*", "fresas", "calabac*", "judías", "semilla*", "plantones", "trasplant*", "suelo", "tierra", "compost", "abono*", "acolchado", "paja", "plagas", "pulgones", "babosas", "mariquitas", "caléndulas", "hongos", "enfermedad*", "heladas", "macetas", "bancal*", "drenaje", "raíces", "hojas", "frutos", "cosech*", "cultivo*", "hierbas", "albahaca", "perejil", "brotes", "nutrientes", "nitrógeno", "estolones", "hortalizas", "tutores", "germin*", "sembr*", "planta*"],
  },
  {
    id: "errores-huerto",
    profile: "huerto",
    request: { topic: "Errores comunes en el huerto", target_keyword: "errores en el huerto", language: "es", mode: "standard", target_words: 600 },
    expect: "success",
    why: "watering on the leaves or too much, too much nitrogen, frost, no rotation, no drainage, pests",
    vocabulary: ["nunca", "demasiado", "exceso", "pudre", "amarillea", "evita", "enfermedades", "plagas", "heladas", "riesgo", "matar", "espigan", "pocos frutos", "ligero", "drenaje", "hongos", "pulgones", "babosas", "no toquen", "sin piedras"],
  },
  {
    // Tomatoes are in four facts of the notes, under the floor: written, this request would be the whole garden
    // under a tomato title (the relevance bench's natural request, labelled refuse before it was run).
    id: "tomates-huerto",
    profile: "huerto",
    request: { topic: "Cultivar tomates en casa", target_keyword: "tomates en casa", language: "es", mode: "standard", target_words: 600 },
    expect: "refusal",
    why: "four facts on tomatoes: too few for an article",
  },
  {
    id: "huerto-bolsa",
    profile: "huerto",
    request: { topic: "Cómo invertir en bolsa", target_keyword: "invertir en bolsa", language: "es", mode: "standard", target_words: 600 },
    expect: "refusal",
    why: "nothing about investing in vegetable garden notes",
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
