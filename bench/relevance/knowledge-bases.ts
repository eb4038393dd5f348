/**
 * A small knowledge base (two pasted texts, 30 plain facts about home composting, no headings) for the
 * natural requests: the kind a customer pastes in on day one.
 */
export const COMPOSTING_FACTS = [
  {
    url: "https://greenleaf.example/facts/basics",
    title: "Composting facts 1",
    content: `Home composting turns kitchen scraps and garden waste into a dark, crumbly soil improver.
Bacteria, fungi and worms do the work of breaking down the organic matter in a compost heap.
A compost heap needs a mix of green material and brown material to break down well.
Green material such as vegetable peelings, fruit scraps, coffee grounds and grass cuttings supplies nitrogen.
Brown material such as cardboard, paper, straw and autumn leaves supplies carbon.
Roughly equal volumes of green and brown material keep a compost heap healthy.
Too much green material makes a compost heap wet, slimy and smelly.
Too much brown material makes a compost heap dry and very slow to break down.
A compost heap should feel as damp as a wrung-out sponge.
Turning the heap with a garden fork every few weeks lets air in and speeds up composting.
A heap that smells of rotten eggs has too little air and usually too much green material.
Adding shredded cardboard and turning the heap cures most smells within a week.
Tea bags made with plastic mesh do not break down and should go in the bin instead.
Meat, fish and dairy products attract rats and should never go in a home compost bin.
Cooked food with oil or fat also attracts pests to the compost heap.`,
  },
  {
    url: "https://greenleaf.example/facts/practice",
    title: "Composting facts 2",
    content: `A closed compost bin keeps rain off the heap and holds its warmth through the winter.
A compost bin works best on bare soil in a sunny or half-shaded spot, where worms can move in from below.
Chopping stems and branches into small pieces helps them break down faster.
Diseased plants and the roots of perennial weeds can survive composting and spread in the garden.
Glossy magazines, coal ash and cat litter do not belong in a compost bin.
Most home compost heaps produce finished compost in six to twelve months.
A hot compost heap of at least one cubic metre can reach 60 °C and finish in eight to twelve weeks.
Cold composting needs less work but takes a year or more to produce finished compost.
Finished compost is dark brown, crumbly and smells like a forest floor.
Gardeners spread finished compost as a mulch around plants or dig it into beds before planting.
A layer of finished compost five centimetres thick helps sandy soil hold water.
Sieved compost mixed with soil makes a good growing medium for seedlings and pots.
A wormery lets people compost kitchen scraps on a balcony or in a small flat.
A bokashi bucket ferments food waste, including cooked food, before it goes into a compost heap.
Composting at home keeps food waste out of landfill, where it would release methane.`,
  },
];

/**
 * A second small knowledge base, for a reader's labels on strips (`fact-labels.ts`): 36 plain facts about
 * making coffee at home, pasted as two texts with no headings, one fact per line, written for this bench. Its
 * facts change subject from one line to the next (grind, water, ratio, methods, beans, cleaning), as a
 * customer's pasted notes do.
 */
export const COFFEE_FACTS = [
  {
    url: "https://brewbench.example/notes/brewing",
    title: "Coffee notes 1",
    content: `Freshly ground coffee loses much of its aroma within half an hour of grinding.
A burr grinder crushes beans to an even size, while a blade grinder chops them unevenly.
Coarse grounds suit a French press, and fine grounds suit an espresso machine.
Grounds that are too fine for the brewing method over-extract and taste bitter.
Grounds that are too coarse under-extract and make a sour, thin cup.
A medium grind, like coarse sand, works well for drip and pour-over brewers.
Water just off the boil, between 90 and 96 °C, extracts coffee best.
Boiling water scorches the grounds and brings out harsh, bitter flavours.
Filtered water makes cleaner coffee than hard tap water full of minerals.
A common starting ratio is one gram of coffee to sixteen grams of water.
Weighing the beans on a kitchen scale gives more consistent cups than measuring with a spoon.
Doubling the amount of coffee for the same water makes a stronger, heavier cup.
A French press steeps the grounds in hot water for about four minutes before the plunger is pressed down.
Pressing the plunger too hard forces fine particles through the mesh and makes the cup muddy.
Coffee left standing on the grounds in a French press keeps extracting and turns bitter.
Pour-over brewing means pouring hot water slowly over the grounds in a paper filter cone.
Wetting the paper filter first rinses out its papery taste and warms the cone.
A short first pour, called the bloom, lets trapped carbon dioxide escape from fresh grounds.
An espresso machine forces hot water through finely ground, tightly packed coffee at high pressure.
A single espresso shot usually takes between 25 and 30 seconds to pull.`,
  },
  {
    url: "https://brewbench.example/notes/beans-and-care",
    title: "Coffee notes 2",
    content: `Roasted coffee beans taste best within two to four weeks of their roast date.
Beans keep longer in an airtight, opaque container away from light, heat and moisture.
Storing beans in the fridge exposes them to moisture and the smells of other food.
Whole beans stay fresh far longer than coffee that is bought already ground.
Light roasts keep more of the bean's fruity acidity, while dark roasts taste smoky and bitter.
Arabica beans are generally sweeter and less bitter than robusta beans.
Robusta beans contain roughly twice as much caffeine as arabica beans.
Coffee oils build up in a machine and give later cups a rancid taste if they are not cleaned away.
Rinsing the French press and the grinder after use stops old oils from spoiling the next brew.
Limescale from hard water clogs coffee machines and slows the flow of water.
Descaling a coffee machine with a citric acid solution every month or two removes limescale.
A cold brew steeps coarse grounds in cold water for twelve to twenty-four hours.
Cold brew tastes smoother and less acidic than coffee brewed hot.
Milk for a latte is steamed to about 60 °C, where it tastes sweetest.
A moka pot brews strong coffee on the stove by pushing boiling water up through the grounds.
Bitter coffee usually means over-extraction: too fine a grind, too hot water or too long a brew.`,
  },
];

/**
 * Two small knowledge bases in other languages than English, pasted as two texts with no headings, one fact
 * per line, written for this bench on 2026-11-27 before any article was asked of them: bicycle maintenance in
 * French, houseplant care in German. Small customers outside English paste notes like these too; the English
 * lists alone could not show what the sentence rules, the FAQ and the headings do with them.
 */
export const VELO_FACTS = [
  {
    url: "https://atelier-velo.example/fiches/chaine-et-pneus",
    title: "Fiches atelier 1",
    content: `Un vélo bien entretenu roule plus longtemps et coûte moins cher en réparations.
La chaîne doit être nettoyée et graissée toutes les quelques centaines de kilomètres.
Une chaîne sèche grince et use plus vite les pignons et les plateaux.
Trop d'huile sur la chaîne attire la poussière et forme une pâte abrasive.
Après le graissage, il faut essuyer l'excès d'huile avec un chiffon propre.
Une chaîne usée s'allonge et finit par sauter sur les pignons.
Un contrôleur d'usure de chaîne indique en quelques secondes s'il faut la remplacer.
La pression des pneus se vérifie au moins une fois par semaine avec une pompe à manomètre.
La pression recommandée est inscrite sur le flanc du pneu.
Des pneus sous-gonflés augmentent la résistance au roulement et le risque de crevaison.
Un pneu trop gonflé adhère moins bien à la route mouillée.
Pour réparer une crevaison, on démonte le pneu avec des démonte-pneus en plastique.
Une rustine collée sur la chambre à air nettoyée et poncée bouche un petit trou.
Avant de remonter le pneu, il faut passer la main à l'intérieur pour retirer l'épine ou le morceau de verre.`,
  },
  {
    url: "https://atelier-velo.example/fiches/freins-et-reglages",
    title: "Fiches atelier 2",
    content: `Les patins de frein s'usent et doivent être changés quand leurs rainures disparaissent.
Un câble de frein détendu allonge la course du levier et réduit la puissance de freinage.
Les freins à disque hydrauliques demandent une purge lorsque le levier devient spongieux.
Il ne faut jamais mettre d'huile sur les disques ou les plaquettes de frein.
Le dérailleur se règle avec deux vis de butée et la tension du câble.
Un dérailleur mal réglé fait sauter la chaîne ou hésite entre deux vitesses.
Un nettoyeur haute pression chasse la graisse des roulements et les abîme.
Un seau d'eau savonneuse et une brosse suffisent pour laver un vélo.
Les roues voilées frottent contre les patins et se redressent avec une clé à rayons.
Les écrous et les vis de la potence se serrent au couple indiqué par le fabricant.
Un serrage excessif peut fendre un cintre ou une tige de selle en carbone.
Ranger le vélo à l'abri de la pluie évite la rouille de la chaîne et des câbles.
Une révision complète chez un vélociste est conseillée une fois par an.
Un kit de base comprend des clés Allen, un dérive-chaîne, des démonte-pneus et une pompe.`,
  },
];

export const ZIMMERPFLANZEN_FACTS = [
  {
    url: "https://gruene-wohnung.example/notizen/giessen-und-licht",
    title: "Pflanzennotizen 1",
    content: `Die meisten Zimmerpflanzen sterben an zu viel Wasser, nicht an zu wenig.
Staunässe im Topf lässt die Wurzeln faulen.
Ein Topf mit Abzugsloch lässt überschüssiges Gießwasser ablaufen.
Vor dem Gießen prüft man mit dem Finger, ob die oberste Erdschicht trocken ist.
Im Winter brauchen die meisten Pflanzen deutlich weniger Wasser als im Sommer.
Kalkarmes Wasser in Zimmertemperatur ist für empfindliche Pflanzen am besten.
Gelbe, weiche Blätter deuten oft auf zu häufiges Gießen hin.
Braune, trockene Blattspitzen entstehen häufig durch trockene Heizungsluft.
Kakteen und Sukkulenten speichern Wasser und vertragen lange Trockenphasen.
Eine Monstera wächst am besten an einem hellen Platz ohne direkte Mittagssonne.
Pflanzen, die zu dunkel stehen, bilden lange, dünne Triebe mit blassen Blättern.
Ein Nordfenster bietet gleichmäßiges, aber schwaches Licht.
Direkte Sonne hinter Glas kann die Blätter von Schattenpflanzen verbrennen.
Von März bis September werden Zimmerpflanzen alle zwei bis vier Wochen gedüngt.`,
  },
  {
    url: "https://gruene-wohnung.example/notizen/pflege-und-schaedlinge",
    title: "Pflanzennotizen 2",
    content: `Im Winter braucht eine Zimmerpflanze in der Regel keinen Dünger.
Zu viel Dünger lässt weiße Salzkrusten auf der Erde entstehen und schädigt die Wurzeln.
Umgetopft wird am besten im Frühjahr, wenn die Wurzeln den Topf ausfüllen.
Der neue Topf sollte nur zwei bis vier Zentimeter größer sein als der alte.
Frische Blumenerde enthält genug Nährstoffe für die ersten sechs Wochen.
Spinnmilben treten vor allem bei trockener Luft auf und hinterlassen feine Gespinste.
Trauermücken legen ihre Eier in dauerhaft feuchte Erde.
Gelbtafeln fangen erwachsene Trauermücken ab.
Blattläuse lassen sich mit einem kräftigen Wasserstrahl abspülen.
Staub auf den Blättern bremst die Photosynthese und lässt sich mit einem feuchten Tuch abwischen.
Eine Schale mit Wasser und Kieselsteinen erhöht die Luftfeuchtigkeit rund um die Pflanze.
Zimmerpflanzen sollten nicht direkt über einer Heizung stehen.
Kalte Zugluft im Winter lässt tropische Pflanzen ihre Blätter abwerfen.
Stecklinge von Efeutute und Monstera bilden in einem Glas Wasser nach wenigen Wochen Wurzeln.`,
  },
];

/**
 * Pasted notes in Spanish on a home vegetable garden, written on 2026-11-27 (fourth stop) like the French and
 * German ones, with their requests and verdicts, before any article was asked of them.
 */
export const HUERTO_FACTS = [
  {
    url: "https://huerto-en-casa.example/notas/riego-y-cultivos",
    title: "Notas del huerto 1",
    content: `Un huerto en casa necesita al menos seis horas de sol directo al día.
Los tomates se riegan en la base de la planta y nunca sobre las hojas.
Regar por la mañana temprano reduce la evaporación y las enfermedades por hongos.
Un riego profundo dos veces por semana es mejor que un riego ligero cada día.
El acolchado con paja mantiene la humedad del suelo y frena las malas hierbas.
Las lechugas crecen bien en primavera y otoño, pero se espigan con el calor del verano.
La rotación de cultivos evita que las plagas y las enfermedades se acumulen en el mismo bancal.
Las tomateras necesitan tutores o jaulas para que los frutos no toquen el suelo.
El compost maduro aporta nutrientes y mejora la estructura de la tierra.
Demasiado abono nitrogenado produce muchas hojas y pocos frutos.
Las macetas para hortalizas deben tener agujeros de drenaje en el fondo.
Los pulgones se eliminan con agua jabonosa o atrayendo mariquitas.
Las caléndulas plantadas junto a las hortalizas alejan algunos insectos.`,
  },
  {
    url: "https://huerto-en-casa.example/notas/siembra-y-cosecha",
    title: "Notas del huerto 2",
    content: `Las semillas de tomate germinan en una semana a unos 20 °C.
Los plantones se trasplantan al exterior cuando ya no hay riesgo de heladas.
Las zanahorias prefieren un suelo suelto y sin piedras.
Las fresas se multiplican por estolones que enraízan solos.
Un exceso de riego pudre las raíces y amarillea las hojas.
Las babosas salen de noche y se combaten con trampas de cerveza.
Cosechar los calabacines pequeños estimula a la planta a producir más.
Las hierbas aromáticas como la albahaca y el perejil crecen bien en macetas en el balcón.
Pellizcar los brotes laterales del tomate concentra la energía en los frutos.
Un bancal elevado se calienta antes en primavera y drena mejor.
Las judías fijan nitrógeno en el suelo y preparan la tierra para el cultivo siguiente.
Guardar semillas de las mejores plantas permite sembrarlas el año siguiente.
Las heladas tardías de primavera pueden matar los plantones recién trasplantados.`,
  },
];

/**
 * The small knowledge bases by name, with the language they are written in and the brand profile that holds
 * them: its name and description, as a customer fills them in when creating it (`POST /v1/brand-profiles`).
 */
export const SMALL_KNOWLEDGE_BASES = {
  composting: { lang: "en", texts: COMPOSTING_FACTS, brand: { name: "Greenleaf composting", description: "Home composting tips from Greenleaf." } },
  coffee: { lang: "en", texts: COFFEE_FACTS, brand: { name: "Brew Bench", description: "Notes on making good coffee at home." } },
  velo: { lang: "fr", texts: VELO_FACTS, brand: { name: "Atelier Vélo", description: "Conseils d'entretien et de réparation de vélos." } },
  zimmerpflanzen: { lang: "de", texts: ZIMMERPFLANZEN_FACTS, brand: { name: "Grüne Wohnung", description: "Pflegetipps für Zimmerpflanzen." } },
  huerto: { lang: "es", texts: HUERTO_FACTS, brand: { name: "Huerto en Casa", description: "Consejos para cultivar un huerto urbano." } },
} as const;
export type SmallKnowledgeBase = keyof typeof SMALL_KNOWLEDGE_BASES;

export type Verdict = "write" | "refuse";

export interface NaturalRequest {
  kb: SmallKnowledgeBase | "debian";
  lang: "en" | "fr" | "de" | "es";
  topic: string;
  expect: Verdict;
}

/**
 * Requests a customer of each brand would type, written by hand with the verdict an honest platform gives:
 * write what the knowledge base covers (whatever the angle: how to, beginners, mistakes, best practices, why,
 * vs), refuse what it does not. The Debian verdicts were checked against the manuals' chapters.
 */
export const NATURAL_REQUESTS: NaturalRequest[] = [
  { kb: "composting", lang: "en", topic: "How to start composting at home", expect: "write" },
  { kb: "composting", lang: "en", topic: "What can you put in a compost bin?", expect: "write" },
  { kb: "composting", lang: "en", topic: "Common composting mistakes to avoid", expect: "write" },
  { kb: "composting", lang: "en", topic: "Composting at home", expect: "write" },
  { kb: "composting", lang: "en", topic: "Composting for beginners", expect: "write" },
  { kb: "composting", lang: "en", topic: "Why does my compost heap smell?", expect: "write" },
  { kb: "composting", lang: "en", topic: "Green and brown material explained", expect: "write" },
  { kb: "composting", lang: "en", topic: "Best practices for a healthy compost heap", expect: "write" },
  // Two facts say anything of hot and cold composting: not enough for an article.
  { kb: "composting", lang: "en", topic: "Hot vs cold composting", expect: "refuse" },
  { kb: "composting", lang: "en", topic: "How to use finished compost in the garden", expect: "write" },
  // Written "write" at first; the fact labels (fact-labels.ts, read fact by fact) give it two facts, like "Hot vs
  // cold composting": not enough for an article either. Corrected on 2026-11-27 for that contradiction alone.
  { kb: "composting", lang: "en", topic: "Tips for composting in a small flat", expect: "refuse" },
  { kb: "composting", lang: "en", topic: "What not to put in your compost", expect: "write" },
  // Outcome verbs and comparatives phrase a goal, not a subject (the angle).
  { kb: "composting", lang: "en", topic: "How to improve your home compost heap", expect: "write" },
  { kb: "composting", lang: "en", topic: "Best CRM software for small real estate agencies", expect: "refuse" },
  { kb: "composting", lang: "en", topic: "How to bake sourdough bread", expect: "refuse" },
  { kb: "composting", lang: "en", topic: "Getting started with Kubernetes autoscaling", expect: "refuse" },
  { kb: "composting", lang: "en", topic: "Solar panel installation costs", expect: "refuse" },
  { kb: "debian", lang: "en", topic: "Best practices for backing up a Debian server", expect: "write" },
  { kb: "debian", lang: "en", topic: "How to pin package versions with APT", expect: "write" },
  { kb: "debian", lang: "en", topic: "Getting started with the Debian shell for beginners", expect: "write" },
  { kb: "debian", lang: "en", topic: "Managing user accounts and passwords", expect: "write" },
  { kb: "debian", lang: "en", topic: "How to encrypt files with GnuPG", expect: "write" },
  { kb: "debian", lang: "en", topic: "Why use sudo instead of logging in as root", expect: "write" },
  { kb: "debian", lang: "en", topic: "Common mistakes to avoid when upgrading Debian", expect: "write" },
  { kb: "debian", lang: "en", topic: "Network configuration tips", expect: "write" },
  { kb: "debian", lang: "en", topic: "How to schedule tasks with cron", expect: "write" },
  { kb: "debian", lang: "en", topic: "How to speed up package management with APT", expect: "write" },
  { kb: "debian", lang: "en", topic: "Best CRM software for small real estate agencies", expect: "refuse" },
  { kb: "debian", lang: "en", topic: "Home composting for beginners", expect: "refuse" },
  { kb: "debian", lang: "en", topic: "Fine-tuning large language models with LoRA", expect: "refuse" },
  { kb: "debian", lang: "en", topic: "Retail demand forecasting", expect: "refuse" },
  { kb: "debian", lang: "fr", topic: "Comment sauvegarder un serveur Debian", expect: "write" },
  { kb: "debian", lang: "fr", topic: "Bonnes pratiques pour les mots de passe", expect: "write" },
  { kb: "debian", lang: "fr", topic: "Débuter avec la gestion des paquets APT", expect: "write" },
  { kb: "debian", lang: "fr", topic: "Chiffrer des fichiers avec GnuPG : guide pratique", expect: "write" },
  // A phrase made with "de" (mots de passe, copias de seguridad) is one subject, not two.
  { kb: "debian", lang: "fr", topic: "La sécurité des mots de passe", expect: "write" },
  { kb: "debian", lang: "fr", topic: "Marketing pour les restaurants", expect: "refuse" },
  { kb: "debian", lang: "fr", topic: "Recettes de cuisine végétarienne", expect: "refuse" },
  { kb: "debian", lang: "de", topic: "Wie sichert man Daten unter Debian?", expect: "write" },
  { kb: "debian", lang: "de", topic: "Tipps für sichere Passwörter", expect: "write" },
  { kb: "debian", lang: "de", topic: "Paketverwaltung mit APT für Einsteiger", expect: "write" },
  { kb: "debian", lang: "de", topic: "Häufige Fehler bei der Netzwerkkonfiguration vermeiden", expect: "write" },
  { kb: "debian", lang: "de", topic: "Sauerteigbrot backen", expect: "refuse" },
  { kb: "debian", lang: "de", topic: "Immobilienmakler Software", expect: "refuse" },
  { kb: "debian", lang: "es", topic: "Cómo hacer copias de seguridad en Debian", expect: "write" },
  { kb: "debian", lang: "es", topic: "Guía de configuración de red para principiantes", expect: "write" },
  { kb: "debian", lang: "es", topic: "Consejos para gestionar paquetes con APT", expect: "write" },
  { kb: "debian", lang: "es", topic: "Por qué usar contraseñas seguras", expect: "write" },
  { kb: "debian", lang: "es", topic: "Herramientas de copias de seguridad", expect: "write" },
  { kb: "debian", lang: "es", topic: "Marketing digital para restaurantes", expect: "refuse" },
  { kb: "debian", lang: "es", topic: "Recetas de pan de masa madre", expect: "refuse" },
  // Added on 2026-11-27, verdicts written from the knowledge bases before any was run: a second small knowledge
  // base (36 coffee facts) and more requests in French, German and Spanish.
  { kb: "coffee", lang: "en", topic: "How to make better coffee at home", expect: "write" },
  { kb: "coffee", lang: "en", topic: "Coffee brewing mistakes to avoid", expect: "write" },
  { kb: "coffee", lang: "en", topic: "Getting started with home coffee brewing", expect: "write" },
  { kb: "coffee", lang: "en", topic: "Tips for a better cup of coffee", expect: "write" },
  { kb: "coffee", lang: "en", topic: "How to brew loose-leaf green tea", expect: "refuse" },
  { kb: "coffee", lang: "en", topic: "Writing a business plan for a coffee shop", expect: "refuse" },
  { kb: "coffee", lang: "en", topic: "Latte art techniques for baristas", expect: "refuse" },
  { kb: "debian", lang: "fr", topic: "Comment configurer le réseau sous Debian", expect: "write" },
  { kb: "debian", lang: "fr", topic: "Les erreurs à éviter lors de la mise à niveau de Debian", expect: "write" },
  { kb: "debian", lang: "fr", topic: "Stratégie de contenu pour les réseaux sociaux", expect: "refuse" },
  { kb: "debian", lang: "de", topic: "Einführung in die Shell für Anfänger", expect: "write" },
  { kb: "debian", lang: "de", topic: "Benutzerkonten und Passwörter verwalten", expect: "write" },
  { kb: "debian", lang: "de", topic: "Steuererklärung für Selbstständige", expect: "refuse" },
  { kb: "debian", lang: "es", topic: "Consejos para administrar usuarios y contraseñas", expect: "write" },
  { kb: "debian", lang: "es", topic: "Cómo entrenar a un perro", expect: "refuse" },
  // Added on 2026-11-27 with the French and German pasted notes, verdicts written from the facts before any was
  // run. A request the notes answer in four or five facts is refused: under the documented floor of eight
  // sentences (brakes: facts 15–18 and 23; pests: facts 20–23).
  { kb: "velo", lang: "fr", topic: "Comment entretenir son vélo", expect: "write" },
  { kb: "velo", lang: "fr", topic: "Les erreurs à éviter dans l'entretien d'un vélo", expect: "write" },
  { kb: "velo", lang: "fr", topic: "Guide du débutant pour l'entretien du vélo", expect: "write" },
  { kb: "velo", lang: "fr", topic: "Entretien des freins de vélo", expect: "refuse" },
  { kb: "velo", lang: "fr", topic: "Choisir une assurance habitation", expect: "refuse" },
  { kb: "velo", lang: "fr", topic: "Recettes de cuisine végétarienne", expect: "refuse" },
  { kb: "zimmerpflanzen", lang: "de", topic: "Zimmerpflanzen richtig pflegen", expect: "write" },
  { kb: "zimmerpflanzen", lang: "de", topic: "Häufige Fehler beim Gießen von Zimmerpflanzen", expect: "write" },
  { kb: "zimmerpflanzen", lang: "de", topic: "Zimmerpflanzen für Anfänger", expect: "write" },
  { kb: "zimmerpflanzen", lang: "de", topic: "Schädlinge an Zimmerpflanzen bekämpfen", expect: "refuse" },
  { kb: "zimmerpflanzen", lang: "de", topic: "Steuererklärung für Selbstständige", expect: "refuse" },
  { kb: "zimmerpflanzen", lang: "de", topic: "Gebrauchtwagen kaufen: Tipps", expect: "refuse" },
  // Added at the fourth stop with the Spanish garden notes, verdicts written from the facts before any was run.
  // Tomatoes are in five facts (2, 8, 14, 22, and "tomateras"): under the floor.
  { kb: "huerto", lang: "es", topic: "Cómo empezar un huerto en casa", expect: "write" },
  { kb: "huerto", lang: "es", topic: "Errores comunes en el huerto", expect: "write" },
  { kb: "huerto", lang: "es", topic: "Consejos de huerto urbano para principiantes", expect: "write" },
  { kb: "huerto", lang: "es", topic: "Cultivar tomates en casa", expect: "refuse" },
  { kb: "huerto", lang: "es", topic: "Cómo invertir en bolsa", expect: "refuse" },
  { kb: "huerto", lang: "es", topic: "Recetas de cocina mexicana", expect: "refuse" },
  // Added at the sixth stop with German compound splitting (docs/relevance.md), verdicts written from the German
  // manual's table of contents before any was run: a customer's compound the manual does not use as one word
  // ("Dateiberechtigungen": the manual has "Dateisystem-Berechtigungen"; disk encryption is "Tipps zur
  // Datenverschlüsselung" with dm-crypt/LUKS), and compounds of words the manual uses about what it does not
  // cover (game consoles, web design, customer management, car finance), which a split must not let through.
  { kb: "debian", lang: "de", topic: "Dateiberechtigungen verstehen", expect: "write" },
  { kb: "debian", lang: "de", topic: "Passwortsicherheit unter Debian", expect: "write" },
  { kb: "debian", lang: "de", topic: "Spielekonsolen im Vergleich", expect: "refuse" },
  { kb: "debian", lang: "de", topic: "Webseitengestaltung für Anfänger", expect: "refuse" },
  { kb: "debian", lang: "de", topic: "Festplattenverschlüsselung einrichten", expect: "write" },
  { kb: "debian", lang: "de", topic: "Paketquellen richtig einrichten", expect: "write" },
  { kb: "debian", lang: "de", topic: "Gebrauchtwagenfinanzierung", expect: "refuse" },
  { kb: "debian", lang: "de", topic: "Kundenverwaltung für kleine Firmen", expect: "refuse" },
  // Added at the sixth stop with "how it works" as an angle in French, German and Spanish (English had it), from
  // the manuals' contents (APT and sudo have their sections; heat pumps are in none).
  { kb: "debian", lang: "de", topic: "Wie funktioniert APT?", expect: "write" },
  { kb: "debian", lang: "fr", topic: "Comment fonctionne sudo ?", expect: "write" },
  { kb: "debian", lang: "es", topic: "¿Cómo funciona APT?", expect: "write" },
  { kb: "debian", lang: "de", topic: "Wie funktioniert eine Wärmepumpe?", expect: "refuse" },
  // Added at the fourteenth stop, verdicts written from the English manual's contents before either was run: the
  // cases of that stop's angle rules ("for the first time" as a phrase, setting up as an angle), one calibration
  // and one held out. The shell has its tutorial chapter, netfilter its section of the network chapter.
  { kb: "debian", lang: "en", topic: "Using the Debian shell for the first time", expect: "write" },
  { kb: "debian", lang: "en", topic: "Setting up a firewall with netfilter", expect: "write" },
  // Added at the fifteenth stop, verdicts written from the manuals' contents before any was run: requests phrased
  // with common verbs and adjectives ("recover", "safely", "find", « trouver », "erstellt", «encontrar»), which
  // generic terms (`WeightedTerm.generic`, fit on the calibration half) must neither refuse when the subject is
  // the manual's nor write when it is not. Covered: "Recovery from a broken system", "How to shutdown the system",
  // "Good password", "Connecting without remote passwords". Three were first written "write" from their headings alone
  // ("Customizing bash" in French and German, "Limiting download bandwidth for APT" in Spanish) and refused by the
  // gate; their sections hold one or two sentences beside a code block (« Vous pouvez personnaliser le comportement
  // de bash(1) à l’aide de « ~/.bashrc ». », "Sie können das Verhalten von bash(1) mittels "~/.bashrc" anpassen.", «Si
  // quiere limitar el ancho de banda …»), under the floor of four sentences every verdict here is held to: corrected
  // to "refuse" after that first run (all three held out, so no fit saw either verdict).
  { kb: "debian", lang: "en", topic: "How to recover a broken Debian system", expect: "write" },
  { kb: "debian", lang: "en", topic: "How to safely shut down a Debian system", expect: "write" },
  { kb: "debian", lang: "en", topic: "How to find cheap flights to Europe", expect: "refuse" },
  { kb: "debian", lang: "en", topic: "Tips to keep houseplants alive in winter", expect: "refuse" },
  { kb: "debian", lang: "fr", topic: "Comment choisir un bon mot de passe", expect: "write" },
  { kb: "debian", lang: "fr", topic: "Comment personnaliser bash", expect: "refuse" },
  { kb: "debian", lang: "fr", topic: "Comment trouver un bon avocat", expect: "refuse" },
  { kb: "debian", lang: "de", topic: "Wie man ein sicheres Passwort erstellt", expect: "write" },
  { kb: "debian", lang: "de", topic: "Wie man schnell Spanisch lernt", expect: "refuse" },
  { kb: "debian", lang: "es", topic: "Cómo limitar el ancho de banda de APT", expect: "refuse" },
  { kb: "debian", lang: "es", topic: "Cómo recuperar un sistema Debian roto", expect: "write" },
  { kb: "debian", lang: "es", topic: "Cómo encontrar trabajo rápidamente", expect: "refuse" },
  { kb: "debian", lang: "en", topic: "How to log in over SSH without typing a password", expect: "write" },
  { kb: "debian", lang: "de", topic: "Wie man die Bash-Shell anpasst", expect: "refuse" },
];
