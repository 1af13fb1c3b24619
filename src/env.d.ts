/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    /** Given by the sidecar to pages rendered on demand: the data of the build it currently serves. */
    site?: import("./domain/pages/page-data.ts").PageData;
  }
}
