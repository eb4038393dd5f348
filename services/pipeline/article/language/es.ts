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
    ejemplo ejemplos lista pregunta preguntas respuesta respuestas nuevo nueva moderno
    reducir mejore mejorar aumentar ahorrar acelerar rápido rápida fácilmente`,
  faqShapes: [
    // «Para instalar un paquete, use …» → «¿Cómo instalar un paquete?»
    { shape: /^Para ((?:[\p{L}\p{N}'’-]+ ){0,7}[\p{L}\p{N}'’-]+), /u, ask: (m) => `¿Cómo ${m[1]}?` },
    // «El paquete es un …» → «¿Qué es el paquete?»
    { shape: /^((?:El|La|Los|Las|Un|Una) (?:[\p{L}\p{N}'’-]+ ){0,3}[\p{L}\p{N}'’-]+) (es|son) (?:un|una|el|la|los|las) /u, ask: (m) => `¿Qué ${m[2]} ${m[1].charAt(0).toLowerCase()}${m[1].slice(1)}?` },
  ],
};
