// Swiper exports its stylesheet as "swiper/css"; Vite bundles it, TypeScript only needs to know it exists.
declare module "swiper/css";
