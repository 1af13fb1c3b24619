// Sentence bank for generated reviews. {tech} = a technician's first name or nickname, {service} = a service
// alias, {area} = a service area name. Grouped by aspect and polarity so star ratings drive the mix.
export type Polarity = "pos" | "neg";

export const bank: Record<string, Record<Polarity, string[]>> = {
  punctuality: {
    pos: [
      "{tech} showed up right on time.",
      "They arrived early, which I appreciated.",
      "Right on time, and he even called ahead when he was ten minutes out.",
      "Never late, not once in three visits.",
      "Showed up on time at 8am sharp.",
      "Arrived within the window they gave us.",
    ],
    neg: [
      "The tech was three hours late and nobody called to tell us.",
      "They were a no-show twice before anyone finally came out.",
      "Showed up late and then blamed traffic.",
      "We took the afternoon off work and they never showed up.",
      "Arrival window was 8 to 12; he got here at 4.",
    ],
  },
  professionalism: {
    pos: [
      "Very professional from start to finish.",
      "{tech} was courteous and clearly knows his stuff.",
      "Honest about what needed fixing and what could wait.",
      "Not pushy at all, which is rare these days.",
      "Nothing felt like an upsell; {tech} gave me options and let me decide.",
      "Professional, respectful of our home, and knowledgeable.",
    ],
    neg: [
      "The technician was unprofessional and kept pushing a whole new system.",
      "Felt like a sales pitch more than a service call.",
      "He was on his phone the entire time.",
      "Not very professional; he argued with me about the thermostat settings.",
    ],
  },
  workmanship: {
    pos: [
      "The {service} work was done right the first time.",
      "Our {service} has worked perfectly ever since.",
      "{tech} found the problem in minutes after another company missed it twice.",
      "Clean, tidy install and everything works great.",
      "Quality work, and he double checked everything before leaving.",
      "The repair was solid and the system runs quieter than before.",
    ],
    neg: [
      "Two days later the same problem came back.",
      "The repair didn't last; the {service} is still leaking.",
      "They replaced a part that wasn't even the problem.",
      "The new unit stopped working within a week.",
      "Sloppy work on the {service}, and we had to call someone else to fix it.",
    ],
  },
  price_value: {
    pos: [
      "The price was fair and there were no hidden fees.",
      "Worth every penny.",
      "Reasonably priced compared to the other two quotes we got.",
      "Not the cheapest, but you get what you pay for and it was worth it.",
      "Great value for the {service} work.",
      "The quote matched the final bill exactly.",
    ],
    neg: [
      "The price was way too high for a twenty minute fix.",
      "We were overcharged, and the invoice had fees nobody mentioned.",
      "Way too expensive; got a second quote for half.",
      "$389 just to show up and tell us it needed a part.",
      "The final bill was almost double the estimate.",
    ],
  },
  communication: {
    pos: [
      "{tech} explained everything before starting and answered all my questions.",
      "The office kept me updated by text all morning.",
      "Great communication, got a text with a photo of the tech before he arrived.",
      "He walked me through what failed and how to avoid it next time.",
      "They called back within the hour.",
    ],
    neg: [
      "Nobody called back after I left three messages.",
      "Still waiting for the invoice they promised to email a month ago.",
      "Communication was terrible; the office had no idea a tech had already been out.",
      "Hard to reach anyone once they had our deposit.",
      "The office hung up on me twice.",
    ],
  },
  cleanliness: {
    pos: [
      "He wore shoe covers and cleaned up after himself.",
      "Left the place cleaner than he found it.",
      "Put down drop cloths and vacuumed when he was done.",
      "No mess at all, you wouldn't know anyone had been here.",
    ],
    neg: [
      "He left a mess in our garage: old filters, screws and insulation everywhere.",
      "Muddy boot prints all over the new carpet.",
      "They made a mess and didn't bother to clean up.",
    ],
  },
  speed: {
    pos: [
      "The whole job took about an hour.",
      "Fast and efficient.",
      "In and out quickly, and everything was running before lunch.",
      "Quick turnaround on the part, only two days.",
    ],
    neg: [
      "The job took forever; he was here for seven hours for a simple swap.",
      "It took two weeks to get the part and we had no heat the whole time.",
      "Very slow, and we were without AC for four days in July.",
    ],
  },
  friendliness: {
    pos: [
      "{tech} was super friendly and patient with all my questions.",
      "Such a kind young man, great with our dog too.",
      "Friendly, polite and easy to talk to.",
      "The lady on the phone was really helpful and pleasant.",
    ],
    neg: [
      "The guy on the phone was rude and dismissive.",
      "He was condescending when I asked a simple question.",
      "Not friendly at all; barely said a word and left.",
    ],
  },
  scheduling: {
    pos: [
      "They fit us in the same day, on a Saturday no less.",
      "Booking online was easy and they had availability the next morning.",
      "Emergency call at 9pm and they had someone out within two hours.",
      "Scheduling was simple and they sent a reminder the day before.",
    ],
    neg: [
      "They cancelled my appointment the morning of, twice.",
      "The earliest appointment was two weeks out, in the middle of a heat wave.",
      "They rescheduled us three times without asking.",
    ],
  },
};

export const openers = [
  "Our {service} quit on the hottest day of the year.",
  "Had {service} done at our house in {area}.",
  "Called them when the {service} died in January.",
  "This was our third time using Summit Comfort.",
  "We found them through a neighbor in {area}.",
  "Needed a {service} check before selling the house.",
  "Woke up to no hot water and a puddle in the garage.",
  "Booked them for {service} after a friend recommended them.",
  "Long time customer here in {area}.",
  "Our old {service} was making a grinding noise.",
];

export const closersPos = [
  "Highly recommend!",
  "Will definitely use them again.",
  "Thanks {tech}!",
  "Couldn't be happier.",
  "No complaints at all.",
  "Can't say enough good things about {tech} and the team.",
  "Five stars, would recommend to anyone in {area}.",
  "We've already signed up for the Comfort Club.",
  "I wouldn't hesitate to recommend them.",
  "10/10 👍",
  "Great job, {tech} 🙌",
];

export const closersNeg = [
  "Would not recommend.",
  "Never again.",
  "Save yourself the hassle and call someone else.",
  "Very disappointed.",
  "I expected better after all the good reviews.",
  "Avoid.",
];

export const closersMid = [
  "Overall okay, but there is room to improve.",
  "Decent, but not great.",
  "It got fixed in the end.",
  "Mixed feelings about this one.",
];

export const mixed = [
  "{tech} was on time but the price was way too high.",
  "Great work, but they left a mess in the hallway.",
  "Not cheap, but worth it.",
  "The repair was solid, although scheduling took a while.",
  "Friendly tech, but the office never called back about the warranty.",
  "Fast service; however the bill was more than we expected.",
  "The install looks great but it took forever to get on the schedule.",
  "He was a little late, but very professional once he got here.",
];

export const titlesPos = [
  "Great service",
  "Fast and honest",
  "Saved our summer",
  "Highly recommend",
  "Excellent work",
  "Top notch",
  "Will use again",
  "Life savers",
];
export const titlesNeg = [
  "Disappointed",
  "Not worth the money",
  "Poor communication",
  "Would not use again",
  "No-show twice",
];
export const titlesMid = ["It was okay", "Mixed experience", "Good tech, slow office"];

export const specialTexts = [
  'Tess fixed our furnace & the thermostat. She said it was "a classic ignitor failure" and she was right. Merci beaucoup! 😊',
  "Jake replaced the water heater in 45 minutes. Café-level hot water now ☕🔥 — great job.",
  "The invoice said <script>alert('hi')</script> in the notes field, which made me laugh. Otherwise great work by Priya on the AC & ducts.",
  "Señora García here in Nampa: Marcus habló español conmigo y explicó todo. ¡Excelente servicio! 5 ⭐",
  "「とても丁寧でした」 — my mother-in-law's words after Will serviced her heat pump in Meridian. We agree 👍",
  'Quote was $1,250 & final bill was $1,250. No surprises. "What you see is what you get" — love that.',
];

export const authors = [
  "Jennifer M.",
  "Robert K.",
  "Linda S.",
  "Michael T.",
  "Sarah P.",
  "David W.",
  "Karen L.",
  "James R.",
  "Patricia H.",
  "Chris B.",
  "Amanda F.",
  "Daniel G.",
  "Jessica N.",
  "Matthew C.",
  "Ashley D.",
  "Brian O.",
  "Emily V.",
  "Kevin J.",
  "Rachel A.",
  "Steven Y.",
  "Nicole E.",
  "Tom Z.",
  "Megan I.",
  "Carlos R.",
  "Aisha B.",
  "Wei L.",
  "Sofia M.",
  "José P.",
  "Hannah Q.",
  "Tyler U.",
  "Olivia W.",
  "Noah K.",
  "Grace T.",
  "Ethan S.",
  "Zoë L.",
  "Mateo G.",
  "Fatima H.",
  "Liam O.",
  "Chloé D.",
  "Ben A.",
];

export const responsesPos = [
  "Thank you so much for the kind words! We'll pass them on to {tech}.",
  "Thanks for choosing Summit Comfort. We're glad we could help!",
  "We appreciate you taking the time to leave a review. See you at your next tune-up!",
];

export const responsesNeg = [
  "We're sorry to hear this. This is not the experience we want for anyone. Please call our office manager directly at 208-555-0147 so we can make it right.",
  "Thank you for the feedback. We have reviewed the visit with our team and reached out by phone to schedule a free follow-up.",
  "We apologize for the scheduling problems. We've added two technicians this season to shorten wait times, and we'd like the chance to earn back your trust.",
];
