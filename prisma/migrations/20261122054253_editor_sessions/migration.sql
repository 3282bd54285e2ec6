-- CreateTable
CREATE TABLE "EditorSession" (
    "id" TEXT NOT NULL,
    "personaId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "guildId" TEXT,
    "channelId" TEXT,
    "threadId" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "summary" TEXT NOT NULL DEFAULT '',
    "summarizedThrough" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "clearedAt" TIMESTAMP(3),

    CONSTRAINT "EditorSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EditorTurn" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "text" TEXT NOT NULL DEFAULT '',
    "toolName" TEXT,
    "callId" TEXT,
    "input" JSONB,
    "isError" BOOLEAN NOT NULL DEFAULT false,
    "responseId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EditorTurn_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PersonaTestInput" (
    "id" TEXT NOT NULL,
    "personaId" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'town',
    "content" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PersonaTestInput_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "EditorSession_personaId_ownerId_active_idx" ON "EditorSession"("personaId", "ownerId", "active");

-- CreateIndex
CREATE INDEX "EditorSession_threadId_active_idx" ON "EditorSession"("threadId", "active");

-- CreateIndex
CREATE UNIQUE INDEX "EditorTurn_sessionId_seq_key" ON "EditorTurn"("sessionId", "seq");

-- CreateIndex
CREATE INDEX "PersonaTestInput_personaId_idx" ON "PersonaTestInput"("personaId");

-- AddForeignKey
ALTER TABLE "EditorSession" ADD CONSTRAINT "EditorSession_personaId_fkey" FOREIGN KEY ("personaId") REFERENCES "Persona"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EditorTurn" ADD CONSTRAINT "EditorTurn_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "EditorSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonaTestInput" ADD CONSTRAINT "PersonaTestInput_personaId_fkey" FOREIGN KEY ("personaId") REFERENCES "Persona"("id") ON DELETE CASCADE ON UPDATE CASCADE;
