/**
 * Two pasted knowledge bases the relevance model was never fit on and no rule was written from (written for the
 * held-out probe, 2026-11-27): backyard beekeeping notes in English, cat care notes in Spanish, one fact a line,
 * two text sources each, as a customer pastes them.
 */
export interface PastedKnowledgeBase {
  lang: "en" | "es";
  name: string;
  description: string;
  texts: { title: string; content: string }[];
}

export const HELD_OUT_KNOWLEDGE_BASES: Record<"bees" | "gatos", PastedKnowledgeBase> = {
  bees: {
    lang: "en",
    name: "Hillside Apiary",
    description: "Backyard beekeeping advice from a small apiary.",
    texts: [
      {
        title: "Starting with bees",
        content: `A new beekeeper should start with two hives, so that one colony can be compared with the other.
Spring is the best season to install a package of bees or a nucleus colony.
A nucleus colony comes with a laying queen, brood and drawn comb, so it builds up faster than a package.
Place hives where they get morning sun and some shade in the hottest part of the afternoon.
Face the hive entrance away from paths and neighbours' gardens so that flight lines do not cross where people walk.
A veil and gloves are the minimum protective gear; many beekeepers also wear a full suit for their first season.
A smoker calms the bees by masking their alarm pheromone; use cool white smoke, never hot flames.
Langstroth hives use removable frames, which makes inspections and honey harvests easier.
Check the local rules: some towns require hives to be registered or set back from property lines.
Bees need a source of water within a few hundred metres; a shallow dish with stones stops them from drowning.`,
      },
      {
        title: "Hive care through the year",
        content: `Inspect the hive every seven to ten days in spring and early summer to watch for swarm preparations.
Queen cells along the bottom edge of frames are a sign that the colony is preparing to swarm.
Giving the colony more room by adding a super before it is crowded reduces the urge to swarm.
Varroa mites are the most serious threat to honey bee colonies.
Count mites with a sugar roll or an alcohol wash at least once a month from spring to autumn.
Treat for varroa when the count is above three mites per hundred bees in late summer.
Only harvest honey from frames that are at least eighty percent capped, or the honey may ferment.
Leave at least twenty kilograms of honey on a hive in a temperate climate for the bees to survive winter.
Feed a thick sugar syrup, two parts sugar to one part water, in autumn if the stores are light.
Reduce the entrance in autumn so that the colony can defend itself against wasps and robbing bees.
In winter, do not open the hive; heft it from behind to judge how much food is left.
A mouse guard on the entrance keeps mice from nesting in the comb during winter.
Old dark comb should be replaced every few years because it accumulates pesticide residues and disease spores.
American foulbrood is a notifiable disease in many countries, and infected hives must often be burned.`,
      },
    ],
  },
  gatos: {
    lang: "es",
    name: "Michi Salud",
    description: "Consejos de una clínica veterinaria sobre el cuidado de gatos.",
    texts: [
      {
        title: "Alimentación y agua",
        content: `Un gato adulto necesita una dieta rica en proteína animal, porque es un carnívoro estricto.
La comida húmeda ayuda a que el gato beba suficiente agua y reduce el riesgo de problemas urinarios.
Muchos gatos prefieren beber de una fuente de agua en movimiento antes que de un cuenco.
Coloque el cuenco de agua lejos del comedero y de la bandeja de arena.
La leche de vaca no es adecuada para la mayoría de los gatos adultos, que no digieren bien la lactosa.
La cebolla, el ajo, el chocolate y las uvas son tóxicos para los gatos.
Un gato esterilizado necesita menos calorías, por lo que conviene ajustar la ración para evitar la obesidad.
Reparta la ración diaria en varias tomas pequeñas, como haría un gato que caza.`,
      },
      {
        title: "Salud y bienestar",
        content: `Lleve a su gato al veterinario al menos una vez al año para una revisión completa.
Las vacunas básicas protegen contra la panleucopenia, el herpesvirus y el calicivirus felinos.
Desparasite a su gato contra parásitos internos cada tres a seis meses, según su estilo de vida.
Un gato que sale al exterior necesita protección contra pulgas y garrapatas durante todo el año.
La esterilización evita camadas no deseadas y reduce el marcaje con orina.
Cepille a los gatos de pelo largo varias veces por semana para evitar nudos y bolas de pelo.
Limpie la bandeja de arena a diario y cambie toda la arena una vez por semana.
Debe haber una bandeja de arena por gato, más una adicional.
Un rascador estable permite al gato afilar las uñas sin dañar los muebles.
Los gatos duermen entre doce y dieciséis horas al día, así que necesitan un lugar tranquilo para descansar.
Jugar con el gato diez minutos dos veces al día reduce el estrés y el sobrepeso.
Si su gato deja de comer durante más de un día, consulte al veterinario, porque puede sufrir lipidosis hepática.
Esconderse, dejar de acicalarse o cambiar de hábitos en la bandeja pueden ser signos de dolor.
Un gato mayor de diez años debería tener análisis de sangre anuales para detectar problemas renales.`,
      },
    ],
  },
};
