// Every vitest file renders with the catalogues loaded, in English (jsdom's navigator).
import "./index";
