// The sample business. Used by the generator for content/ and for the benchmark's synthetic datasets.
export const sampleBusiness = {
  name: "Summit Comfort Home Services",
  description:
    "Family-owned heating, cooling, plumbing and electrical service for the Treasure Valley since 2009. Licensed, bonded and insured.",
  url: "https://summitcomfort.example",
  telephone: "+1-208-555-0147",
  email: "hello@summitcomfort.example",
  address: {
    street_address: "4120 W Emerald St, Suite 3",
    locality: "Boise",
    region: "ID",
    postal_code: "83706",
    country: "US",
  },
  geo: { latitude: 43.6038, longitude: -116.2531 },
  price_range: "$$",
  opening_hours: ["Mo-Fr 07:00-18:00", "Sa 08:00-14:00"],
  same_as: ["https://www.facebook.com/summitcomfort.example", "https://www.yelp.com/biz/summit-comfort-example"],
  schema_type: "HVACBusiness",
  services: [
    {
      id: "ac-repair",
      name: "AC Repair",
      aliases: ["air conditioning repair", "air conditioner", "AC", "A/C", "central air"],
    },
    {
      id: "furnace-service",
      name: "Furnace Repair & Installation",
      aliases: ["furnace", "heat pump", "heating system"],
    },
    {
      id: "water-heater",
      name: "Water Heater Service",
      aliases: ["water heater", "hot water heater", "tankless heater", "tankless"],
    },
    {
      id: "drain-cleaning",
      name: "Drain Cleaning",
      aliases: ["clogged drain", "drain", "sewer line", "hydro jetting"],
    },
    {
      id: "electrical",
      name: "Electrical Repair",
      aliases: ["electrician", "breaker", "electrical panel", "panel upgrade", "wiring"],
    },
    { id: "duct-cleaning", name: "Duct Cleaning", aliases: ["air ducts", "ductwork", "ducts"] },
    {
      id: "maintenance-plan",
      name: "Comfort Club Maintenance Plan",
      aliases: ["maintenance plan", "tune-up", "tune up", "Comfort Club"],
    },
  ],
  technicians: [
    { id: "marcus-delgado", name: "Marcus Delgado", aliases: ["Marc"] },
    { id: "priya-raman", name: "Priya Raman", aliases: ["Pri"] },
    { id: "will-okafor", name: "William Okafor", aliases: ["Will", "Billy"] },
    { id: "tess-nguyen", name: "Teresa Nguyen", aliases: ["Tess"] },
    { id: "grant-holloway", name: "Grant Holloway", aliases: ["Holloway"] },
    { id: "jake-sorensen", name: "Jacob Sorensen", aliases: ["Jake"] },
  ],
  service_areas: [
    { id: "boise", name: "Boise", postal_codes: ["83702", "83704", "83705", "83706", "83709"] },
    { id: "meridian", name: "Meridian", postal_codes: ["83642", "83646"] },
    { id: "nampa", name: "Nampa", postal_codes: ["83651", "83686", "83687"] },
    { id: "eagle", name: "Eagle", postal_codes: ["83616"] },
    { id: "kuna", name: "Kuna", postal_codes: ["83634"] },
    { id: "caldwell", name: "Caldwell", postal_codes: ["83605", "83607"] },
    { id: "garden-city", name: "Garden City", aliases: ["Garden City, ID"], postal_codes: ["83714"] },
  ],
};
