-- DropIndex
DROP INDEX "EditorSession_threadId_active_idx";

-- One session per thread or DM from now on: cleared sessions let go of theirs, and where several
-- active ones share a place (the bug this fixes), the most recently updated one keeps it.
UPDATE "EditorSession" SET "threadId" = NULL WHERE "active" = false;
UPDATE "EditorSession" AS s SET "threadId" = NULL
WHERE s."threadId" IS NOT NULL AND EXISTS (
    SELECT 1 FROM "EditorSession" AS o
    WHERE o."threadId" = s."threadId" AND o."id" <> s."id"
      AND (o."updatedAt" > s."updatedAt" OR (o."updatedAt" = s."updatedAt" AND o."id" > s."id"))
);

-- CreateIndex
CREATE UNIQUE INDEX "EditorSession_threadId_key" ON "EditorSession"("threadId");
