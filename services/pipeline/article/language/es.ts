import type { LanguageProfile } from "./profile";

export const SPANISH: LanguageProfile = {
  code: "es",
  name: "Spanish",
  angleWords: `cómo como qué que por porqué cuándo cuando dónde donde cuál cuáles quién puede pueden puedo poder debe deben
    debo hacer hace empezar empieza comenzar comienza iniciar principiante principiantes primero primeros primera primer
    paso pasos guía guías tutorial consejo consejos truco trucos idea ideas forma formas manera maneras mejor mejores
    buen buena buenas buenos práctica prácticas práctico error errores evitar común comunes frecuente frecuentes simple
    sencillo fácil rápido completo completa esencial básico básicos básica introducción resumen entender saber todo
    conocer aprender versus contra comparación comparar diferencia diferencias ventaja ventajas desventaja desventajas
    razón razones importante usar uso utilizar poner elegir escoger mantener tomar ayudar realmente siempre menudo
    ejemplo ejemplos lista pregunta preguntas respuesta respuestas nuevo nueva moderno`,
};
