import { describe, expect, it } from "vitest";
import { KeywordSchedule } from "../../src/article/body/keyword-schedule.js";

// When a passage owes a keyword, and what it carries to the next one.

describe("the keyword schedule", () => {
  it("spreads the primary keyword's uses over the passage's words, then asks for the secondary ones", () => {
    const schedule = new KeywordSchedule({ primary: "compost bins", language: "en" });
    schedule.open({ primaryUses: 2, secondary: ["kitchen scraps"], budget: 100 });
    expect(schedule.due(0)).toBe("compost bins");
    schedule.record("Neighbours share compost bins.");
    // The second use is due half-way: before that, the secondary keyword is.
    expect(schedule.due(20)).toBe("kitchen scraps");
    expect(schedule.due(50)).toBe("compost bins");
    schedule.record("Compost bins take kitchen scraps.");
    expect(schedule.due(60)).toBeUndefined();
    expect(schedule.owing).toBe(false);
  });

  it("pays a keyword with any sentence that holds it, whoever placed it, case aside", () => {
    const schedule = new KeywordSchedule({ primary: "compost bins", language: "en" });
    schedule.open({ primaryUses: 1, secondary: ["kitchen scraps"], budget: 50 });
    schedule.record("Kitchen Scraps feed the heap.");
    expect(schedule.due(0)).toBe("compost bins");
    schedule.record("Gardeners like their compost bins.");
    expect(schedule.owing).toBe(false);
  });

  it("carries what a passage could not place to the next one", () => {
    const schedule = new KeywordSchedule({ primary: "compost bins", language: "en" });
    schedule.open({ primaryUses: 1, secondary: ["kitchen scraps"], budget: 50 });
    expect(schedule.waited(40)).toBe(40);
    schedule.close(45);
    schedule.open({ primaryUses: 0, secondary: ["garden waste"], budget: 50 });
    // What it carries has waited the words of the passage before (the body then bridges a slot sooner).
    expect(schedule.waited(5)).toBe(50);
    expect(schedule.due(0)).toBe("compost bins");
    schedule.record("Compost bins stand by the fence.");
    expect(schedule.due(10)).toBe("kitchen scraps");
    schedule.record("Kitchen scraps go in first.");
    expect(schedule.due(20)).toBe("garden waste");
    // Nothing carried: nothing has waited before the passage.
    schedule.record("Garden waste goes on top.");
    schedule.close(30);
    schedule.open({ primaryUses: 0, secondary: ["leaf mould"], budget: 50 });
    expect(schedule.waited(5)).toBe(5);
  });
});
